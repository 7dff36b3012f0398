// What tells that a file's content changed without reading it: its size, modification time, change time,
// inode and device. The change time is the one a rewrite cannot put back (`utimes`, `cp -p`, `rsync -t`
// and `git` set the modification time, and change this one to now). The viewer's run list and the schema
// plugins' watch decide "changed" by it.
import { statSync, type Stats } from "node:fs";

/** A file's state as one text: another text means the file was written (or replaced) since. */
export function fileStamp(stats: Stats): string {
  return `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}:${stats.dev}`;
}

/** {@link fileStamp} of the file at `file`, or undefined when there is none. */
export function fileStampOf(file: string): string | undefined {
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats && fileStamp(stats);
}
