// What both test lanes share: the one list of test files, split in projects by what each file imports,
// and the package's own names resolved for each.
//
// - "bundle": a test file that reaches our code only through the package's names (`entity-tools`,
//   `entity-tools/testing`, …), itself and through the helpers and examples it imports, runs against
//   dist/, the bundles that ship (the names resolve as package.json `exports` says for `import`). Node
//   itself loads the bundles, as it does in a user's project: through vitest's module runner they were
//   transformed and run again in each test file, about a second of each file's start.
// - "bundle (mocks)": such a file that replaces a module with `vi.mock` (a package the bundles import),
//   where the module runner loads the bundles, since only it can hand them the mock.
// - "source": a test file that imports an internal module (src/, decorators/, or a file of dist/) runs
//   against the sources, its package names included, so that one process holds one copy of the library
//   (two would mean two decorator registries and `instanceof` failing between them).
// Before a run, each project makes the bundles again from the sources if a source changed
// (scripts/bundle.mjs writes only what differs), so no test sees a stale build. Why the split is by file
// and not by folder: docs/contributing.md, "What the tests run against".
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProjectInlineConfiguration } from "vitest/config";
import { entryPoints } from "./scripts/entry-points.mjs";

const root = fileURLToPath(new URL(".", import.meta.url));

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const aliases = (pick: (entry: { built: string; source: string }) => string) =>
  entryPoints().names.map((entry) => ({
    find: new RegExp(`^${escape(entry.name)}$`),
    replacement: pick(entry),
  }));

/** The package's names resolved to the sources (the "source" project). */
export const sourceAliases = aliases((entry) => path.join(root, entry.source));
/** The package's names resolved to the built bundles (the "bundle" project). */
export const bundleAliases = aliases((entry) => entry.built);

export const testTimeouts = { testTimeout: 30_000, hookTimeout: 240_000 };

/**
 * A test file per core at once. Vitest's default keeps one core for its own process (one file at a time on
 * CI's two cores), but most files here spend their time waiting on processes they started (Claude Code,
 * codex, Chromium, npm, PostgreSQL) and the main process does little: lane 1 took 771 s with one file at a
 * time and 502 s with two on a two-core machine; three gained nothing more (docs/contributing.md).
 */
export const testWorkers = { maxWorkers: availableParallelism() };

/** `import … from "./x"`, `import "./x"`, `import("./x")`, `export … from "./x"`: relative specifiers only. */
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;
const INTERNAL = ["src", "decorators", "dist"].map((folder) => path.join(root, folder) + path.sep);

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources), if it exists. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const file = path.resolve(path.dirname(from), specifier);
  const candidates = [file, file.replace(/\.(m|c)?js$/, ".$1ts"), `${file}.ts`, path.join(file, "index.ts")];
  return candidates.find((candidate) => existsSync(candidate) && !candidate.endsWith(path.sep));
}

/** Whether a file reaches src/, decorators/ or dist/ through its relative imports, followed transitively. */
function reachesInternals(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const match of text.matchAll(RELATIVE_IMPORT)) {
    const target = resolveRelative(file, match[1]!);
    if (!target) continue;
    if (INTERNAL.some((folder) => target.startsWith(folder))) return true;
    if (/\.[mc]?[jt]s$/.test(target) && reachesInternals(target, seen)) return true;
  }
  return false;
}

function testFilesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => path.posix.join(dir, file.split(path.sep).join("/")));
}

/** `vi.mock(` or `vi.doMock(`: a file that replaces a module for what it imports. */
const MOCKS_A_MODULE = /\bvi\.(?:do)?[mM]ock\(/;
/** The built package (dist/): loaded by Node in the "bundle" project, not by vitest's module runner. */
const BUILT = new RegExp(`^${escape(path.join(root, "dist") + path.sep)}`);

/** The test files of each project (repository-relative paths, usable as `include` patterns). */
export function testFilesByProject(): { source: string[]; bundle: string[]; bundleMocks: string[] } {
  const all = testFilesUnder("test").sort();
  const source = all.filter((file) => reachesInternals(path.join(root, file)));
  const built = all.filter((file) => !source.includes(file));
  const mocks = (file: string) => MOCKS_A_MODULE.test(readFileSync(path.join(root, file), "utf8"));
  return { source, bundle: built.filter((file) => !mocks(file)), bundleMocks: built.filter(mocks) };
}

/** The three projects, for `test.projects` of a lane's config (which they extend). */
export function testProjects(): TestProjectInlineConfiguration[] {
  const { source, bundle, bundleMocks } = testFilesByProject();
  // Each: tests of the sources too start processes that import the built package.
  const globalSetup = [path.join(root, "test/support/fresh-bundle.ts")];
  return [
    {
      extends: true,
      resolve: { alias: sourceAliases },
      test: { name: "source", include: source, globalSetup },
    },
    {
      extends: true,
      resolve: { alias: bundleAliases },
      test: { name: "bundle", include: bundle, globalSetup, server: { deps: { external: [BUILT] } } },
    },
    {
      extends: true,
      resolve: { alias: bundleAliases },
      test: { name: "bundle (mocks)", include: bundleMocks, globalSetup },
    },
  ];
}
