// One run's file: records kept as text and written at each step's end (one write call; steps faster than a
// few milliseconds share one, and what is left is written when the process exits), so a process that dies
// keeps the steps before the one it died in; a size limit that ends the file with a note instead of
// filling a disk; media written as files beside it. A write that fails (a full disk) is reported once and
// ends the writing, never the run.
import { closeSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import type { ToolMediaPart } from "../tools/tool-content.js";
import { mediaExtensionOf } from "./media-extensions.js";
import type { MediaRecord, RunLogRecord } from "./run-log-format.js";
import { toJson } from "./json-text.js";
import { createPrivateFileSync, makePrivateFolderSync } from "../local/private-files.js";

/** The shortest time between two writes of a run's steps (see {@link RunLogFile.flushStep}). */
export const STEP_WRITE_INTERVAL_MS = 2;

/**
 * Files with lines not written yet (a step's, within {@link STEP_WRITE_INTERVAL_MS}): written when the
 * process exits, so a process that ends on an uncaught error or `process.exit()` keeps them too.
 */
const unwritten = new Set<RunLogFile>();
let exitHooked = false;

/** Adds `file` to {@link unwritten}, listening for the exit once a process has such a file. */
function writeAtExit(file: RunLogFile): void {
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", () => {
      for (const pending of unwritten) pending.flush();
    });
  }
  unwritten.add(file);
}

/** How a {@link RunLogFile} writes. */
export interface RunLogFileOptions {
  readonly dir: string;
  /** The file's name without `.jsonl`. */
  readonly id: string;
  readonly limitBytes: number;
  /** Told once, when a write fails: the file is written no further. */
  readonly onFailure: (message: string) => void;
  /** Keep the file open between writes (a run); false closes it after each (an MCP server's calls). */
  readonly keepOpen: boolean;
}

/** The lines (and media) of one logged run. */
export class RunLogFile {
  readonly path: string;
  private fd: number | undefined;
  private created = false;
  /** What the next write writes: the lines added since the last, each ended by a newline. */
  private pending = "";
  /**
   * At least as many bytes as {@link pending} has in UTF-8 (3 per UTF-16 unit, or its exact size once
   * measured): the lines are encoded once, by the write, and measured only near the size limit.
   */
  private pendingMost = 0;
  private lastWrite = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  /** The bytes written (the lines, and media files beside them). */
  private bytes = 0;
  private cut = false;
  private broken = false;
  private mediaCount = 0;

  constructor(private readonly options: RunLogFileOptions) {
    this.path = path.join(options.dir, `${options.id}.jsonl`);
  }

  /**
   * Adds a record to what the next {@link flush} writes. Past the size limit the file gets one `cut`
   * record, then only the run's `end`.
   */
  add(record: RunLogRecord, step: number): void {
    this.addLine(jsonText(record), step, record.type === "end");
  }

  /** {@link add} for a record already in its JSON text (one line, no newline). */
  addLine(text: string, step: number, end = false): void {
    if (this.broken || (this.cut && !end)) return;
    const limit = end ? Infinity : this.options.limitBytes;
    // A UTF-16 unit takes at most 3 bytes: a line surely within the limit is not measured (nor encoded)
    // here; near the limit what is pending and the line are measured exactly.
    let most = text.length * 3 + 1;
    if (this.bytes + this.pendingMost + most > limit) {
      this.pendingMost = Buffer.byteLength(this.pending);
      most = Buffer.byteLength(text) + 1;
    }
    if (this.bytes + this.pendingMost + most <= limit) {
      if (this.pending.length === 0) writeAtExit(this);
      this.pending += `${text}\n`;
      this.pendingMost += most;
      return;
    }
    this.cut = true;
    const note = `The run wrote more than ${limit} bytes: the rest of it is not logged.`;
    this.addLine(JSON.stringify({ type: "cut", step, limitBytes: limit, note }), step, true);
  }

  /**
   * At a step's end (`now`: the step's clock, `performance.now()`): writes what was added, or, when the
   * last write was less than {@link STEP_WRITE_INTERVAL_MS} ago, at most that much later (a timer), so
   * steps that come faster than a disk write is worth (a scripted model's) share one write while every
   * step is on disk within milliseconds of its end: a model call takes longer than that, so a real run
   * writes at each step. A run that never lets the event loop turn (an instant model's) never runs the
   * timer: its steps are written here, by the first step's end at least that long after the last write.
   */
  flushStep(now: number = performance.now()): void {
    if (this.broken || this.pending.length === 0) return;
    const since = now - this.lastWrite;
    if (since >= STEP_WRITE_INTERVAL_MS) return this.flush(now);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), STEP_WRITE_INTERVAL_MS - since);
    this.timer.unref();
  }

  /**
   * Writes what was added since the last write, in one write(2) from the run's own thread (a disk that
   * stalls stalls the run with it; a thread-pool write, measured, cost a third more CPU per step).
   */
  flush(now: number = performance.now()): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.broken || this.pending.length === 0) return;
    this.lastWrite = now;
    const text = this.pending;
    this.pending = "";
    this.pendingMost = 0;
    unwritten.delete(this);
    try {
      if (this.fd === undefined) {
        this.fd = this.created ? openSync(this.path, "a") : createPrivateFileSync(this.path);
        this.created = true;
      }
      this.bytes += writeText(this.fd, text);
      if (!this.options.keepOpen) this.closeFile();
    } catch (error) {
      this.broken = true;
      this.closeFile();
      this.options.onFailure(`${this.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Writes what is left, then closes the file. */
  close(): void {
    this.flush();
    this.closeFile();
  }

  private closeFile(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Closing a file whose writes failed can fail too; nothing is left to lose.
    }
    this.fd = undefined;
  }

  /** Writes a media part's bytes beside the log; what the record says of it (where, or why not). */
  media(part: ToolMediaPart): MediaRecord {
    const { type, mediaType, filename, url, data } = part;
    const base = { type, mediaType, ...(filename === undefined ? {} : { filename }) };
    if (data === undefined) return { ...base, ...(url === undefined ? {} : { url }) };
    return this.mediaBytes(base, Buffer.from(data, "base64"));
  }

  /** Writes `bytes` as a media file beside the log; the record `part` gets (where, or why not). */
  mediaBytes(part: Omit<MediaRecord, "file" | "url" | "skipped">, bytes: Uint8Array): MediaRecord {
    const { type, mediaType, filename } = part;
    const base = { type, mediaType, ...(filename === undefined ? {} : { filename }) };
    if (this.broken) return { ...base, skipped: "the log could not be written" };
    if (this.cut || this.bytes + this.pendingMost + bytes.length > this.options.limitBytes)
      return { ...base, skipped: "the run's size limit was reached" };
    const folder = `${this.options.id}.media`;
    const file = `${folder}/${++this.mediaCount}.${mediaExtensionOf(mediaType)}`;
    try {
      makePrivateFolderSync(path.join(this.options.dir, folder));
      const fd = createPrivateFileSync(path.join(this.options.dir, file));
      try {
        writeAll(fd, bytes);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      return { ...base, skipped: `not written: ${error instanceof Error ? error.message : String(error)}` };
    }
    this.bytes += bytes.length;
    return { ...base, file };
  }
}

/** Writes `data` at the file's position (a write may take less than it was given). */
function writeAll(fd: number, data: Uint8Array): void {
  for (let written = 0; written < data.length;)
    written += writeSync(fd, data, written, data.length - written);
}

/**
 * Writes `text` as UTF-8 at the file's position, encoded once by the write itself; the rest as bytes in
 * the rare case a write takes less than all of it. Returns the bytes written.
 */
function writeText(fd: number, text: string): number {
  const written = writeSync(fd, text);
  const bytes = Buffer.byteLength(text);
  if (written < bytes) writeAll(fd, Buffer.from(text).subarray(written));
  return bytes;
}

/**
 * A record as one line of JSON. A value JSON cannot hold (a bigint, a cycle a tool's input should never
 * have) is written as text saying so, instead of losing the record.
 */
function jsonText(record: RunLogRecord): string {
  try {
    return toJson(record)!;
  } catch (error) {
    const { type, step } = record as { type: string; step?: number };
    const problem = `not logged: ${error instanceof Error ? error.message : String(error)}`;
    return JSON.stringify({
      type: "note",
      step: step ?? 0,
      kind: "log",
      message: `A ${type} record was ${problem}`,
    });
  }
}
