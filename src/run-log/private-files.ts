// What the run log writes holds users' words: its folders are readable by their owner only (0700) and its
// files too (0600), whatever the process's umask (which can only take bits away from the mode asked for,
// so the mode is set again explicitly).
import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";

/** Creates `dir` (and missing parents) for its owner only; a folder that exists is left as it is. */
export function makePrivateDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    chmodSync(d, 0o700);
    if (d === path.resolve(first) || d === path.dirname(d)) break;
  }
}

/**
 * Opens a file for its owner only: `"wx"` a new one (it must not exist), `"w"` a new or emptied one (an
 * existing file's mode is set too).
 */
export function openPrivateFile(file: string, flags: "wx" | "w" = "wx"): number {
  const fd = openSync(file, flags, 0o600);
  try {
    fchmodSync(fd, 0o600);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Writes all of `data` at the file's current position (a write may take less than it was given). */
export function writeAll(fd: number, data: Buffer | string): void {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  for (let written = 0; written < bytes.length;)
    written += writeSync(fd, bytes, written, bytes.length - written);
}
