// Bundles a fixture app with esbuild (as a user's build would) and runs it with this Node. The app imports
// the package by its own name, which resolves to the build (the package's own `exports`): the tsconfig is
// given inline, so the repository's `paths` to the sources do not apply. `npm test` builds first.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { tempDir } from "./temp-dir.js";

/** Bundles `entry` (minified unless told otherwise) into a scratch folder; returns the output file. */
export async function bundleApp(entry: string, { minify = true } = {}): Promise<string> {
  const outfile = path.join(tempDir("bundle-"), "app.mjs");
  await build({
    entryPoints: [entry],
    bundle: true,
    minify,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "silent",
    // The fixtures' legacy decorators; no `paths`, so `entity-tools` is the built package.
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
    // An optional peer the app installs itself (entity-tools/postgres loads it on first use).
    external: ["pg"],
    // CommonJS dependencies bundled into ESM call require() for Node built-ins.
    banner: {
      js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);',
    },
  });
  return outfile;
}

/** Runs a bundled app and returns what it printed, parsed as JSON. */
export async function runBundled<T>(outfile: string): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, [outfile]);
  return JSON.parse(stdout) as T;
}

/** Bundles `entry` minified, runs it, and returns what it printed, parsed as JSON. */
export async function runMinified<T>(entry: string): Promise<T> {
  return runBundled<T>(await bundleApp(entry));
}

/** The text of a bundled file. */
export const bundledText = (outfile: string) => readFileSync(outfile, "utf8");
