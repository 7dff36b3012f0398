// Opening a file a user handed us (a run log, its media, a cassette) for reading: only a regular file is
// read. A FIFO named `x.jsonl` would block the open until someone writes to it (a synchronous open blocks
// the whole process), and a device (`/dev/zero`) never ends; a stat before the open does not prevent it,
// for the name can be given to a FIFO between the two. So the file is opened without blocking
// (`O_NONBLOCK`, which changes nothing for a regular file's reads) and its kind is checked on what was
// opened (`fstat`), not on the name.
import { closeSync, constants, fstatSync, openSync, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { nodeFs } from "../lazy/node-builtins.js";

const READ_NOW = constants.O_RDONLY | constants.O_NONBLOCK;

/** A file that is not a regular file (a FIFO, a device, a folder, a socket): it is not read. */
export class NotRegularFileError extends Error {
  readonly code = "ENOTREGULAR";

  constructor(
    readonly file: string,
    /** What it is instead, in words (`a FIFO`). */
    readonly kind: string,
  ) {
    super(`${file} is ${kind}, not a regular file`);
    this.name = "NotRegularFileError";
  }
}

/**
 * Opens `file` for reading when it is a regular file (symbolic links followed), without blocking on a FIFO.
 *
 * @throws NotRegularFileError for anything else; the open's own error (ENOENT, EACCES) as it is
 */
export function openRegularFileSync(file: string): { fd: number; stats: Stats } {
  const fd = openSync(file, READ_NOW);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(file, kindOf(stats));
    return { fd, stats };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** {@link openRegularFileSync}, as a promise of a file handle. */
export async function openRegularFile(file: string): Promise<{ handle: FileHandle; stats: Stats }> {
  const handle = await nodeFs().open(file, READ_NOW);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(file, kindOf(stats));
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isDirectory()) return "a folder";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}
