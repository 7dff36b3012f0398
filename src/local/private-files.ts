// What the library writes that holds users' words (stored conversations, run logs) is for the owner of
// the process only: folders 0700, files 0600. Modes given at creation are narrowed by the umask, which
// only takes bits away, so these hold whatever the umask is. A folder that already exists is not
// changed (it may be shared on purpose, or not ours to change): it gets one warning instead.
import { mkdirSync, openSync, statSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { nodeFs } from "../lazy/node-builtins.js";

/** A folder of users' words: its owner may list, enter and write it; no one else. */
export const PRIVATE_FOLDER_MODE = 0o700;
/** A file of users' words: its owner may read and write it; no one else. */
export const PRIVATE_FILE_MODE = 0o600;

/** The `process.emitWarning` code of a shared folder (see {@link warnIfShared}). */
export const SHARED_FOLDER_WARNING = "ENTITY_TOOLS_SHARED_FOLDER";

// The folder walk is ours, not Node's `mkdir(…, { recursive: true })`: Node's walks back to the parent
// on ENOENT and forward again on EEXIST, so where a parent exists and still cannot hold the child
// (procfs: `/proc/runs`) it never returns, at 100 % CPU, sync and async alike: `withRunLog("/proc/runs")`
// hung the process. Here each missing parent is made once; a second ENOENT is the answer.

/** Creates `folder` and its missing parents, each for its owner only. */
export async function makePrivateFolder(folder: string, parentMade = false): Promise<void> {
  const fs = nodeFs();
  try {
    await fs.mkdir(folder, PRIVATE_FOLDER_MODE);
  } catch (error) {
    const exists = hasCode(error, "EEXIST") && (await fs.stat(folder).catch(() => undefined))?.isDirectory();
    if (!parentMissing(folder, error, parentMade, exists === true)) return;
    await makePrivateFolder(path.dirname(folder));
    await makePrivateFolder(folder, true);
  }
}

/** Creates a new file for its owner only (it must not exist: `wx`), open for writing. */
export function createPrivateFile(file: string): Promise<FileHandle> {
  return nodeFs().open(file, "wx", PRIVATE_FILE_MODE);
}

/**
 * {@link makePrivateFolder}, synchronous: for a check that must fail before anything runs (`withRunLog`).
 */
export function makePrivateFolderSync(folder: string, parentMade = false): void {
  try {
    mkdirSync(folder, PRIVATE_FOLDER_MODE);
  } catch (error) {
    const exists = hasCode(error, "EEXIST") && statSync(folder, { throwIfNoEntry: false })?.isDirectory();
    if (!parentMissing(folder, error, parentMade, exists === true)) return;
    makePrivateFolderSync(path.dirname(folder));
    makePrivateFolderSync(folder, true);
  }
}

/**
 * After `mkdir(folder)` failed with `error`: false when `folder` is a folder already, true when its parent
 * is missing and was not made yet (make it, then try again), else it throws `error`.
 */
function parentMissing(folder: string, error: unknown, parentMade: boolean, exists: boolean): boolean {
  if (exists) return false;
  if (hasCode(error, "ENOENT") && !parentMade && path.dirname(folder) !== folder) return true;
  throw error;
}

function hasCode(error: unknown, code: string): boolean {
  return (error as { code?: unknown } | null)?.code === code;
}

/**
 * {@link createPrivateFile}, synchronous, as a descriptor: for a writer that writes each step as it ends
 * (the run log).
 */
export function createPrivateFileSync(file: string): number {
  return openSync(file, "wx", PRIVATE_FILE_MODE);
}

const warned = new Set<string>();

/**
 * Once per folder and process: when others may enter `folder` (made by an older version, or by hand), a
 * Node warning naming it, what it holds and the command that closes it. A missing folder, or a system
 * without POSIX modes (Windows), has nothing to warn about.
 */
export async function warnIfShared(folder: string, holds: string): Promise<void> {
  if (process.platform === "win32" || warned.has(folder)) return;
  const mode = (
    await nodeFs()
      .stat(folder)
      .catch(() => undefined)
  )?.mode;
  if (mode === undefined || (mode & 0o077) === 0) return;
  warned.add(folder);
  process.emitWarning(
    `${folder} holds ${holds} and other users of this machine may read it (mode ${(mode & 0o777).toString(8)}). ` +
      `Run \`chmod 700 '${folder}'\` to make it yours only (new folders and files are made that way already).`,
    { code: SHARED_FOLDER_WARNING },
  );
}
