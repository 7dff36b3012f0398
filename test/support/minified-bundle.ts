// Bundles a fixture app with `esbuild --minify` (as a user's build would) and runs it with this Node.
// The app imports the package by its own name, so it gets the build (npm test builds first).
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";

/** Bundles `entry` minified, runs it, and returns what it printed, parsed as JSON. */
export async function runMinified<T>(entry: string): Promise<T> {
  const outfile = path.join(mkdtempSync(path.join(tmpdir(), "bundle-")), "app.mjs");
  await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "silent",
    // An optional peer the app installs itself (entity-tools/postgres loads it on first use).
    external: ["pg"],
    // CommonJS dependencies bundled into ESM call require() for Node built-ins.
    banner: {
      js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);',
    },
  });
  const { stdout } = await promisify(execFile)(process.execPath, [outfile]);
  return JSON.parse(stdout) as T;
}
