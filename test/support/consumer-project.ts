// Consumer projects made from the packed tarball, as a user installs the package: one `npm pack` per
// package content and one `npm install` per dependency list, shared by the test files and by the two lanes
// of one `npm test` (the packs and installs were the slowest part of the suite, and each file of each lane
// did its own).
//
// - The tarball is packed once per content: its key hashes package.json and every file its `files` names
//   (a superset of what npm packs), so a rebuild that changes what ships packs again, and one that changes
//   nothing does not. The content is hashed again after packing: a build that wrote meanwhile fails the
//   test rather than leave a tarball under a key it does not match.
// - An install is kept per tarball, dependency list and day (`typescript@^7` means today's latest, so a
//   cache never serves yesterday's), in the OS temporary folder: a project inside the repository would
//   find the repository's own node_modules by walking up, and a test that checks what a user's install
//   lacks (no TypeScript in a production install) would pass for the wrong reason.
// - A test never writes into a shared install: `consumerProject()` makes a new folder with a node_modules
//   of its own whose entries are symlinks to the install's packages (Node, tsc and Vite resolve through
//   them as through real ones), so what tools write there (Vite's `.vite-temp`, vitest's cache) stays in
//   the test's folder. Never run npm in a consumer project: it would write through the links.
// - Concurrent files and runs need no lock: each packs or installs into a folder of its own and renames it
//   into place; the loser of a race removes its copy and uses the winner's. Entries of this checkout not
//   used for an hour are removed when a new one is made (a run in progress touches the ones it uses).
// - Each cache names its checkout (a file `checkout` holding the path). A clone that is deleted leaves its
//   cache behind (0.5–1.3 GB: the installs), and no run of it will ever prune it: the first new entry
//   made by any checkout removes the caches whose checkout is gone.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const exec = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const hash = (...parts: (string | Buffer)[]) => {
  const digest = createHash("sha256");
  for (const part of parts) digest.update(part).update("\0");
  return digest.digest("hex").slice(0, 16);
};
/** Where every checkout's cache is, each in a folder named by this prefix and its checkout's hash. */
const CACHE_PREFIX = "entity-tools-tests-";
/** This checkout's cache (another checkout on the machine has its own, so neither prunes the other's). */
const cache = path.join(tmpdir(), `${CACHE_PREFIX}${hash(root)}`);
/** The file in a cache that names its checkout (see {@link pruneCachesOfGoneCheckouts}). */
const CHECKOUT_FILE = "checkout";
const UNUSED_MS = 60 * 60 * 1000;

/** Every file under `target` (a file or a folder), repository-relative and sorted. */
function filesUnder(target: string): string[] {
  const full = path.join(root, target);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [target];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The hash of what `npm pack` reads: package.json and the files its `files` names (a superset is fine). */
function packageContentKey(): string {
  const manifest = readFileSync(path.join(root, "package.json"));
  const { files = [] } = JSON.parse(manifest.toString()) as { files?: string[] };
  return hash(
    manifest,
    ...files
      .filter((f) => !f.startsWith("!"))
      .flatMap(filesUnder)
      .flatMap((file) => [file, readFileSync(path.join(root, file))]),
  );
}

/** Marks an entry as in use, so that no run prunes it meanwhile. */
function touch(entry: string): void {
  const now = new Date();
  utimesSync(entry, now, now);
}

/** Removes the entries of `folder` but `keep` that were not used for an hour. */
function prune(folder: string, keep: string): void {
  for (const name of readdirSync(folder)) {
    const entry = path.join(folder, name);
    if (entry === keep) continue;
    try {
      if (Date.now() - statSync(entry).mtimeMs > UNUSED_MS) rmSync(entry, { recursive: true, force: true });
    } catch {
      // removed by another run meanwhile
    }
  }
}

/**
 * Removes the caches of checkouts that no longer exist (their `package.json` is gone), so that deleted
 * clones do not keep gigabytes in the temporary folder. A cache without its {@link CHECKOUT_FILE} (made
 * before it existed, or being made) is left alone.
 */
function pruneCachesOfGoneCheckouts(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(CACHE_PREFIX)) continue;
    const folder = path.join(tmpdir(), name);
    try {
      const checkout = readFileSync(path.join(folder, CHECKOUT_FILE), "utf8");
      if (!existsSync(path.join(checkout, "package.json"))) rmSync(folder, { recursive: true, force: true });
    } catch {
      // no checkout named (or removed by another run meanwhile)
    }
  }
}

/**
 * Makes `entry` with `make(scratch)` (which fills a new folder) unless it exists; returns it. A concurrent
 * maker of the same entry is harmless: the first rename wins, the other copy is removed.
 */
async function cached(entry: string, make: (scratch: string) => Promise<void>): Promise<string> {
  if (existsSync(entry)) {
    touch(entry);
    return entry;
  }
  const folder = path.dirname(entry);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(cache, CHECKOUT_FILE), root);
  pruneCachesOfGoneCheckouts();
  const scratch = mkdtempSync(`${entry}.partial-`);
  try {
    await make(scratch);
    renameSync(scratch, entry); // fails (ENOTEMPTY) if another maker's copy is in place
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    if (!existsSync(entry)) throw error; // a real failure, not a lost race
  }
  prune(folder, entry);
  touch(entry);
  return entry;
}

/** The package packed by `npm pack` from the current build (`npm test` builds first); its path. */
export async function packedTarball(): Promise<string> {
  const key = packageContentKey();
  const folder = await cached(path.join(cache, "pack", key), async (scratch) => {
    await exec("npm", ["pack", "--pack-destination", scratch, "--loglevel=error"], { cwd: root });
    if (packageContentKey() !== key)
      throw new Error("dist/ changed while npm pack read it (a build running beside the tests?): run again");
  });
  const [tarball] = readdirSync(folder).filter((f) => f.endsWith(".tgz"));
  return path.join(folder, tarball!);
}

/** How a consumer installs the package. */
export interface InstallOptions {
  /** `npm install --omit=dev`: a production install. */
  readonly omitDev?: boolean;
}

/**
 * A folder where `npm install <tarball> ...dependencies` ran (with the npm cache the repository's own install
 * filled), shared: read it, never write into it (`consumerProject` gives a folder to write in).
 */
export async function installedPackage(
  dependencies: readonly string[],
  { omitDev = false }: InstallOptions = {},
): Promise<string> {
  const tarball = await packedTarball();
  const day = new Date().toISOString().slice(0, 10);
  const key = hash(path.basename(path.dirname(tarball)), ...[...dependencies].sort(), String(omitDev), day);
  return cached(path.join(cache, "install", key), async (scratch) => {
    writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "scratch", private: true }));
    await exec(
      "npm",
      ["install", ...(omitDev ? ["--omit=dev"] : []), tarball, ...dependencies]
        // Offline first: the packages are in the npm cache after the repository's own install.
        .concat(["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"]),
      { cwd: scratch },
    );
  });
}

/**
 * A new, empty folder in the OS temporary folder whose `node_modules` links to each package of the shared
 * install (`.bin` included), for a test to write its projects in; the test removes it (`rmSync(dir,
 * { recursive: true })` removes the links, not the install).
 */
export async function consumerProject(
  dependencies: readonly string[],
  options: InstallOptions = {},
): Promise<string> {
  const installed = path.join(await installedPackage(dependencies, options), "node_modules");
  const dir = mkdtempSync(path.join(tmpdir(), "consumer-"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  mkdirSync(path.join(dir, "node_modules"));
  for (const name of readdirSync(installed).filter((n) => n !== ".package-lock.json"))
    symlinkSync(path.join(installed, name), path.join(dir, "node_modules", name), "dir");
  return dir;
}

/**
 * What a user of the README installs (its Install lines, with today's majors: TypeScript 7 beside
 * typescript-json-schema, which brings its own TypeScript 5.9; vitest 5 and esbuild for its decorator
 * config), plus what the docs' snippets import (the optional peers, `@types/node`). One install per lane
 * serves the quick start and the docs' snippets (test/package/quick-start.test.ts, docs-snippets.test.ts).
 * The AI SDK is the one npm gives a user on the lane's Node: `npm install ai @ai-sdk/openai` takes the
 * newest version whose `engines` that Node meets, so ai 6 (`@ai-sdk/openai` 3) on Node 20 and ai 7
 * (`@ai-sdk/openai` 4, Node 22 or newer) on Node 22. Not the Claude Agent SDK: it brings a 380 MB binary;
 * its snippet type-checks without it.
 */
export const README_PROJECT_DEPENDENCIES: readonly string[] = [
  "class-transformer@^0.5.1",
  ...(Number(process.versions.node.split(".")[0]) >= 22
    ? ["ai@^7", "@ai-sdk/provider@^4", "@ai-sdk/openai@^4", "@ai-sdk/devtools@^1"]
    : ["ai@^6", "@ai-sdk/provider@^3", "@ai-sdk/openai@^3", "@ai-sdk/devtools@0.0"]),
  "typescript@^7",
  "typescript-json-schema@0.68.0",
  "vitest@^5",
  "esbuild@^0.28",
  "@types/node@^22",
  "@opentelemetry/api@^1.9",
  "pg@^8",
  "@types/pg@^8",
  "@modelcontextprotocol/server@^2.4",
  "@modelcontextprotocol/client@^2.4",
  "@modelcontextprotocol/node@^2.1",
];
