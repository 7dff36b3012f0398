// The viewer's page: index.html, viewer.css and viewer.js, the script built at build time (esbuild, by
// scripts/build-viewer.ts) into dist/src/viewer/page/, so the package ships static files and runs no
// bundler or dev server. Run from the sources (tests, a checkout), the script is bundled on first use
// from page/main.ts with the same function the build uses.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** The page's three files, as text. */
export interface PageAssets {
  readonly html: string;
  readonly css: string;
  readonly js: string;
}

let loaded: Promise<PageAssets> | undefined;

/** The page's files (read once per process). */
export function pageAssets(): Promise<PageAssets> {
  loaded ??= load().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

/**
 * Where the page's files are, seen from this module: beside it in the sources (src/viewer/page/); in the
 * package, this module is bundled into the bin (dist/src/cli.js) or one of its chunks (dist/src/chunks/).
 */
const PLACES = ["./page/", "./viewer/page/", "../viewer/page/"];

async function load(): Promise<PageAssets> {
  const dir =
    PLACES.map((place) => new URL(place, import.meta.url)).find((url) =>
      existsSync(new URL("index.html", url)),
    ) ?? new URL("./page/", import.meta.url);
  const built = new URL("viewer.js", dir);
  const [html, css, js] = await Promise.all([
    readFile(new URL("index.html", dir), "utf8"),
    readFile(new URL("viewer.css", dir), "utf8"),
    existsSync(built) ? readFile(built, "utf8") : bundleViewerPage(fileURLToPath(new URL("main.ts", dir))),
  ]);
  return { html, css, js };
}

/**
 * The page's script, bundled from its entry (`page/main.ts`) into one browser script: what the build writes
 * to `dist/src/viewer/page/viewer.js`. Needs esbuild (a development dependency).
 */
export async function bundleViewerPage(entry: string): Promise<string> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    target: "es2020",
    platform: "browser",
    write: false,
    legalComments: "none",
    charset: "utf8",
  });
  return result.outputFiles[0]!.text;
}
