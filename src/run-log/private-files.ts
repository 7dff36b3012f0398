// What the run log writes holds users' words: its folders are readable by their owner only (0700) and its
// files too (0600), whatever the process's umask (which can only take bits away from the mode asked for,
// so the mode is set again explicitly).
import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync } from "node:fs";
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

/** Opens a new file (it must not exist) for its owner only; `flags` `"wx"` to write, `"ax"` to append. */
export function openPrivateFile(file: string, flags: "wx" | "ax" = "wx"): number {
  const fd = openSync(file, flags, 0o600);
  try {
    fchmodSync(fd, 0o600);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}
