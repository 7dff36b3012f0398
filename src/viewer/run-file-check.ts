// Whether a run file still holds what the page read of it, so that what it gained is only what comes after.
// A file that grows is appended to; one rewritten longer, or replaced, with the same first line, grows too,
// and a file rewritten twice within one tick of the file system's clock keeps every time: no stat tells
// those apart from an append. So each read gives the page a check of the bytes it read, which the page sends
// back with its next read: the file's inode (a file put in its place is another one), a hash of the last
// 16 KiB before the offset (read again at every read: one small read, whatever the file's length), and a
// hash of every byte before it, chained read by read (so a read hashes only the bytes it reads). The whole
// prefix is hashed again only when the page asks: when the file did not grow (rewritten in place, or its
// last read was made while it was still changing, see RECENT_MS), once per change, not per step. The hash
// is FNV-1a, written here rather than taken from node:crypto: a chained hash's state travels to the page
// and back between reads, and node:crypto cannot export a hash's state (a 32-bit number can travel).
import { readSync, type Stats } from "node:fs";

/** How many bytes before an offset every read checks. */
const TAIL_BYTES = 16 * 1024;
/** The chunk a whole prefix is hashed in. */
const CHUNK_BYTES = 1024 * 1024;
const FNV_OFFSET = 0x811c9dc5;

/** What a check says of the bytes before its offset. */
interface Check {
  readonly file: string;
  readonly tail: number;
  readonly all: number;
}

/** FNV-1a (32 bits) of `bytes`, going on from `hash` (a hash of the bytes before them). */
export function fnv1a(bytes: Uint8Array, hash = FNV_OFFSET): number {
  let h = hash;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/**
 * Whether the file open at `fd` still holds, before `offset`, the bytes `check` was made of: the same file
 * (inode, device), the same last 16 KiB and, when `whole`, the same bytes from its start.
 */
export function stillHolds(fd: number, stats: Stats, offset: number, check: string, whole: boolean): boolean {
  const held = parseCheck(check);
  if (!held || held.file !== fileId(stats) || offset > stats.size) return false;
  if (hashRange(fd, Math.max(0, offset - TAIL_BYTES), offset) !== held.tail) return false;
  return !whole || hashRange(fd, 0, offset) === held.all;
}

/**
 * The check of the bytes before `next` in the file open at `fd`, read from `from`; `before`, the check of
 * the bytes before `from` (a read from an offset without one hashes them).
 */
export function checkOf(
  fd: number,
  stats: Stats,
  from: number,
  next: number,
  before: string | undefined,
): string {
  const chained = from === 0 ? FNV_OFFSET : (parseCheck(before ?? "")?.all ?? hashRange(fd, 0, from));
  const all = hashRange(fd, from, next, chained);
  const tail = hashRange(fd, Math.max(0, next - TAIL_BYTES), next);
  return `${fileId(stats)}.${tail.toString(16)}.${all.toString(16)}`;
}

function fileId(stats: Stats): string {
  return `${stats.dev}-${stats.ino}`;
}

function parseCheck(check: string): Check | undefined {
  const match = /^(\d+-\d+)\.([0-9a-f]{1,8})\.([0-9a-f]{1,8})$/.exec(check);
  return match ? { file: match[1]!, tail: parseInt(match[2]!, 16), all: parseInt(match[3]!, 16) } : undefined;
}

/** FNV-1a of the file's bytes from `start` to `end`, read a chunk at a time (going on from `hash`). */
function hashRange(fd: number, start: number, end: number, hash = FNV_OFFSET): number {
  const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, end - start));
  for (let at = start; at < end;) {
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, end - at), at);
    if (read === 0) break;
    hash = fnv1a(chunk.subarray(0, read), hash);
    at += read;
  }
  return hash;
}
