// How much of a run file one read of the viewer holds: at most `limit` bytes (64 MiB; the writer's own
// limit is 50 MB a run), so that a file of gigabytes, or one line of hundreds of megabytes, costs the server
// (and the page) one read's worth of memory, never the file's. What a read leaves out is said in its text
// by a stand-in line (unread-line.ts) that the reader names: a line longer than the limit is skipped
// (scanned for its end a chunk at a time, never held), and the rest of a file longer than one read is
// read by the next one (the page asks for it at once). A file that cannot be opened is one stand-in line.
import { closeSync, readSync } from "node:fs";
import { nodeCrypto } from "../lazy/node-builtins.js";
import { NotRegularFileError, openRegularFileSync } from "../local/regular-file.js";
import { listedHeader } from "../run-log/listed-header.js";
import { isEndLine } from "../run-log/run-tally.js";
import { unreadLine } from "../run-log/unread-line.js";

/** The most one read of a run file holds, in bytes. */
export const RUN_FILE_READ_LIMIT = 64 * 1024 * 1024;

/** How far from either end a run's first and last lines are looked for (the first line's fingerprint too). */
const EDGE_BYTES = [64 * 1024, 4 * 1024 * 1024];
/** The chunk a skipped line is scanned in for its end. */
const SCAN_BYTES = 1024 * 1024;

/** What one read of a run file from an offset gives. */
export interface BoundedRead {
  /** The text from the offset (a skipped line, or the rest of the file, as a stand-in). */
  readonly text: string;
  /** Where the next read starts: after the last whole line read (or skipped). */
  readonly next: number;
  /** Whether the file goes on after this read, beyond what it could hold. */
  readonly more: boolean;
}

/** Reads the file open at `fd`, `size` bytes long, from `start`: at most `limit` bytes of it. */
export function readBounded(fd: number, size: number, start: number, limit: number): BoundedRead {
  const buffer = Buffer.alloc(Math.min(size - start, limit));
  const read = readSync(fd, buffer, 0, buffer.length, start);
  const lines = buffer.lastIndexOf(0x0a, read - 1) + 1;
  // All of it fits: its whole lines, and a last line still being written (read again, whole, next time).
  if (start + read >= size)
    return { text: buffer.toString("utf8", 0, read), next: start + lines, more: false };
  if (lines > 0) {
    const next = start + lines;
    return { text: buffer.toString("utf8", 0, lines) + rest(size - next, limit), next, more: true };
  }
  // One line longer than a read: skipped, with its length (or, with no end yet, read again when it has one).
  const end = newlineAfter(fd, start + read, size);
  if (end === -1)
    return { text: unreadLine({ unread: "line", bytes: size - start, limit }), next: start, more: false };
  const next = end + 1;
  const skipped = `${unreadLine({ unread: "line", bytes: end - start, limit })}\n`;
  return next < size
    ? { text: skipped + rest(size - next, limit), next, more: true }
    : { text: skipped, next, more: false };
}

/** The stand-in of a file's last `bytes` bytes, left for the next read (as a last line: replaced by it). */
function rest(bytes: number, limit: number): string {
  return unreadLine({ unread: "rest", bytes, limit });
}

/** The offset of the first newline in the file at or after `from`, or -1: read a chunk at a time. */
function newlineAfter(fd: number, from: number, size: number): number {
  const chunk = Buffer.alloc(Math.min(SCAN_BYTES, size - from));
  for (let at = from; at < size;) {
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - at), at);
    if (read === 0) break;
    const newline = chunk.subarray(0, read).indexOf(0x0a);
    if (newline !== -1) return at + newline;
    at += read;
  }
  return -1;
}

/**
 * The file at `file` open for reading (a regular file: a FIFO put in its place is not waited on), why it
 * cannot be read (no permission), or undefined when it is gone or no longer a regular file.
 */
export function openRun(file: string): ReturnType<typeof openRegularFileSync> | string | undefined {
  try {
    return openRegularFileSync(file);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return error instanceof NotRegularFileError || code === "ENOENT" ? undefined : message;
  }
}

/** A read of a file that cannot be opened: one stand-in line that says why (the reader names it). */
export function unreadable(
  reason: string,
): BoundedRead & { from: number; check: string; settled: boolean; headHash: string } {
  const text = `${unreadLine({ unread: "file", reason })}\n`;
  return { text, from: 0, next: 0, check: "", settled: true, more: false, headHash: "" };
}

/** A run file's first line as the run list reads it ({@link listedHeader}), and its fingerprint. */
export interface RunFileHead {
  /** The header's fields the list reads, not its content; a stand-in line when the file cannot be read. */
  readonly head: string;
  /**
   * A SHA-256 of the first line (of its first 4 MiB when it is longer): another one means another run in
   * the file's place. Empty when the file has no whole first line yet, or cannot be read.
   */
  readonly headHash: string;
}

/**
 * A file's first line as the list reads it and its end record (its last whole line when that is one,
 * looked for near each end, then further; else empty: a run with no end record yet, whose last line can be
 * a call's result of megabytes, which the list never sends nor keeps); a file that cannot be opened has,
 * as its first line, a stand-in that says why.
 */
export function edges(file: string, listed: number): RunFileHead & { size: number; tail: string } {
  const opened = openRun(file);
  if (typeof opened === "string")
    return { size: listed, head: unreadLine({ unread: "file", reason: opened }), headHash: "", tail: "" };
  if (!opened) throw new Error(`${file} is gone`);
  const { fd } = opened;
  try {
    const size = opened.stats.size;
    const first = firstLine(fd, size);
    const head = listedHeader(first.bytes.toString("utf8"), first.whole);
    let tail = "";
    for (const limit of EDGE_BYTES) {
      const length = Math.min(size, limit);
      const end = Buffer.alloc(length);
      readSync(fd, end, 0, length, size - length);
      const last = end.lastIndexOf(0x0a);
      const before = last > 0 ? end.lastIndexOf(0x0a, last - 1) : -1;
      if (last !== -1 && (before !== -1 || length === size)) tail = end.toString("utf8", before + 1, last);
      if (tail || length === size) break;
    }
    return { size, head, headHash: headHashOf(first), tail: isEndLine(tail) ? tail : "" };
  } finally {
    closeSync(fd);
  }
}

/** The {@link RunFileHead.headHash} of the file open at `fd`, `size` bytes long. */
export function headHash(fd: number, size: number): string {
  return headHashOf(firstLine(fd, size));
}

/** What is read of a file's first line. */
interface FirstLine {
  /** The line without its newline, or its first bytes (4 MiB) when it is longer, or what there is of it. */
  readonly bytes: Buffer;
  /** Whether `bytes` is the whole line. */
  readonly whole: boolean;
  /** Whether the line goes on past what was read: its first bytes will not change as it is written. */
  readonly longer: boolean;
}

/** The first line of the file open at `fd`, looked for near its start, then further (4 MiB). */
function firstLine(fd: number, size: number): FirstLine {
  let bytes = Buffer.alloc(0);
  for (const limit of EDGE_BYTES) {
    const length = Math.min(size, limit);
    bytes = Buffer.alloc(length);
    readSync(fd, bytes, 0, length, 0);
    const newline = bytes.indexOf(0x0a);
    if (newline !== -1) return { bytes: bytes.subarray(0, newline), whole: true, longer: false };
    if (length === size) return { bytes, whole: false, longer: false };
  }
  return { bytes, whole: false, longer: true };
}

/** A line still being written (no end, within what was read) has no fingerprint yet: it changes. */
function headHashOf({ bytes, whole, longer }: FirstLine): string {
  return whole || longer ? nodeCrypto().createHash("sha256").update(bytes).digest("base64url") : "";
}
