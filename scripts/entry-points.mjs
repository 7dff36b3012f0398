// The published entry points, read from package.json: every JavaScript file its `exports` (each condition)
// and its `bin` name, with the source file it is built from (`./dist/src/x/index.js` ← `src/x/index.ts`).
// The build bundles these, the test lanes resolve the package's names through them and TypeDoc documents
// their declarations, so a new entry point is one line of package.json `exports` (or `bin`).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root (this file is in scripts/). */
export const root = fileURLToPath(new URL("..", import.meta.url));

const SOURCE_EXTENSION = { ".js": ".ts", ".mjs": ".mts", ".cjs": ".cts" };

/** `./dist/src/x/index.js` → `src/x/index.ts` (or `.d.ts` → `.ts` for a `types` target). */
function sourceOf(target) {
  const built = path.posix.normalize(target).replace(/^dist\//, "");
  if (built === path.posix.normalize(target)) throw new Error(`${target}: a published file must be in dist/`);
  const declaration = /\.d\.([mc]?)ts$/.exec(built);
  const source = declaration
    ? built.replace(/\.d\.[mc]?ts$/, `.${declaration[1]}ts`)
    : built.replace(/\.[mc]?js$/, (ext) => SOURCE_EXTENSION[ext]);
  if (!existsSync(path.join(root, source))) throw new Error(`${target}: its source ${source} does not exist`);
  return source;
}

/** Every condition's target of one `exports` value, with its condition (`import`, `require`, `types`, …). */
function targetsOf(value, condition = "default") {
  if (typeof value === "string") return [{ condition, target: value }];
  return Object.entries(value ?? {}).flatMap(([key, inner]) => targetsOf(inner, key));
}

/**
 * The package's entry points from package.json.
 * - `bundles`: each JavaScript file to build, as `{ out, source }` (`out` is the path in dist/ without
 *   its extension), once each.
 * - `names`: each package name a user imports (`entity-tools`, `entity-tools/testing`, …) with the source
 *   of its `import` and of its `types` target, and the built file its `import` condition resolves to.
 */
export function entryPoints(manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"))) {
  const bundles = new Map();
  const names = [];
  const addBundle = (target) => {
    if (!/\.[mc]?js$/.test(target)) return;
    const out = path.posix
      .normalize(target)
      .replace(/^dist\//, "")
      .replace(/\.[mc]?js$/, "");
    bundles.set(out, { out, source: sourceOf(target) });
  };
  for (const [key, value] of Object.entries(manifest.exports ?? {})) {
    const targets = targetsOf(value).filter(({ target }) => target.startsWith("./dist/"));
    if (targets.length === 0) continue; // ./package.json
    for (const { condition, target } of targets) if (condition !== "types") addBundle(target);
    const pick = (...conditions) =>
      conditions.map((c) => targets.find((t) => t.condition === c)).find(Boolean);
    const imported = pick("import", "default");
    const types = pick("types");
    names.push({
      name: key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`,
      built: path.join(root, imported.target),
      source: sourceOf(imported.target),
      types: types ? sourceOf(types.target) : sourceOf(imported.target),
    });
  }
  const bins = typeof manifest.bin === "string" ? [manifest.bin] : Object.values(manifest.bin ?? {});
  for (const target of bins) addBundle(target);
  return { bundles: [...bundles.values()], names };
}
