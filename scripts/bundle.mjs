// Bundles every published entry point (scripts/entry-points.mjs: package.json `exports` and `bin`) with
// esbuild into dist/, in one build with code splitting: each entry is one file, and what two entries share
// is in a chunk (dist/src/chunks/) that both import, so the package has one copy of every module-level
// state (the decorators' metadata, the schema store, the error brand, the process-wide key ring).
//
// - Every package is external (`packages: "external"`): dependencies and peers are imported, never inlined,
//   and an `import()` of an optional peer (pg, the MCP and Claude SDKs, @opentelemetry/api, ai/internal,
//   typescript-json-schema) stays an `import()` that runs when it is needed.
// - A `.cts` file of ours (decorators/reflect-metadata.cts) is CommonJS on purpose and stays its own file:
//   importing the polyfill's 64 kB CommonJS file from ESM directly would make Node scan all of it for named
//   exports. Its importers get the path relative to wherever esbuild put them.
// - Source maps are linked, with the sources inlined (src/ is not shipped).
// The declarations are tsc's (scripts/build.mjs); this file makes the JavaScript only, so the test lanes
// can re-bundle in a second when a source changed (vitest.shared.ts).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { entryPoints, root } from "./entry-points.mjs";

const OUT = path.join(root, "dist");
/** Where shared chunks go (inside dist/src, which package.json `files` ships). */
const CHUNKS = "src/chunks";
/** An external `.cts` file of ours, named by its path in the repository until its importers are known. */
const LOCAL = "entity-tools-local:";

/** Node's version from package.json `engines` (`>=20.19` → `node20.19`), the language level to emit. */
function target() {
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const min = /(\d+(?:\.\d+)*)/.exec(manifest.engines?.node ?? "")?.[1];
  if (!min) throw new Error("package.json engines.node names no Node version to build for");
  return `node${min}`;
}

/** Keeps relative imports of our `.cts` files (written `.cjs`) out of the bundle, and records them. */
function commonJsFiles(found) {
  return {
    name: "entity-tools-commonjs-files",
    setup(b) {
      b.onResolve({ filter: /^\.\.?\/.*\.cjs$/ }, (args) => {
        const source = path.resolve(args.resolveDir, args.path.replace(/\.cjs$/, ".cts"));
        if (!existsSync(source)) return undefined;
        const file = path.relative(root, source);
        found.add(file);
        return { path: `${LOCAL}${file.replace(/\.cts$/, ".cjs")}`, external: true };
      });
    },
  };
}

/** The built files, in memory: `{ path, text }` for every file dist/ gets. */
async function outputs() {
  const found = new Set();
  const result = await build({
    absWorkingDir: root,
    entryPoints: entryPoints().bundles.map(({ source, out }) => ({ in: source, out })),
    outdir: OUT,
    chunkNames: `${CHUNKS}/[name]-[hash]`,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: target(),
    packages: "external",
    tsconfig: path.join(root, "tsconfig.build.json"),
    sourcemap: "linked",
    sourcesContent: true,
    // No `keepNames`: its `__name()` calls are side effects that a consumer's bundler cannot drop, so an
    // app importing only `defineTool` would carry the whole root entry. What esbuild renames (a top-level
    // name two modules share gets a digit) is never read: errors name themselves (`errorName`).
    logLevel: "warning",
    plugins: [commonJsFiles(found)],
    write: false,
  });
  const files = result.outputFiles.map(({ path: file, text }) => ({
    path: file,
    text: file.endsWith(".js")
      ? text.replaceAll(new RegExp(`"${LOCAL}([^"]+)"`, "g"), (_, local) => {
          const relative = path.relative(path.dirname(file), path.join(OUT, local)).replaceAll(path.sep, "/");
          return JSON.stringify(relative.startsWith(".") ? relative : `./${relative}`);
        })
      : text,
  }));
  for (const source of found) {
    const cjs = await build({
      absWorkingDir: root,
      entryPoints: [source],
      outfile: path.join(OUT, source.replace(/\.cts$/, ".cjs")),
      format: "cjs",
      platform: "node",
      target: target(),
      sourcemap: "linked",
      sourcesContent: true,
      logLevel: "warning",
      write: false,
    });
    files.push(...cjs.outputFiles.map(({ path: file, text }) => ({ path: file, text })));
  }
  return files;
}

/**
 * Bundles the entry points into dist/. With `onlyChanged`, writes only the files whose text differs from
 * what is there and removes chunks no entry imports any more (what a test run does before it starts, so
 * a build that is current is left untouched); returns the paths written.
 */
export async function bundle({ onlyChanged = false } = {}) {
  const files = await outputs();
  const written = [];
  for (const file of files) {
    if (onlyChanged && existsSync(file.path) && readFileSync(file.path, "utf8") === file.text) continue;
    mkdirSync(path.dirname(file.path), { recursive: true });
    // Written whole, then renamed: a test process of the other lane reading it meanwhile sees one or the other.
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.text);
    renameSync(temporary, file.path);
    written.push(file.path);
  }
  const chunks = path.join(OUT, CHUNKS);
  const current = new Set(files.map((f) => f.path));
  for (const name of existsSync(chunks) ? readdirSync(chunks) : [])
    if (!current.has(path.join(chunks, name))) rmSync(path.join(chunks, name));
  return written;
}
