// The viewer's jail: the only files it reads are the run logs of one folder (or the one file it was given)
// and their media, by name. A name is a plain file name of the expected shape, and the file it resolves to
// (symbolic links followed) must be inside the folder; anything else does not exist for the viewer.
import { closeSync, readdirSync, realpathSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { fileStamp } from "../local/file-stamp.js";
import { checkOf, stillHolds } from "./run-file-check.js";
import {
  edges,
  headHash,
  openRun,
  readBounded,
  RUN_FILE_READ_LIMIT,
  unreadable,
  type RunFileHead,
} from "./run-file-read.js";

/**
 * A run log file as the page's run list needs it: its header's fields that say which run it is (not its
 * prompt), a fingerprint of its first line, and its end record.
 */
export interface RunFileEntry extends RunFileHead {
  readonly name: string;
  readonly size: number;
  /**
   * The file's state when it was read ({@link fileStamp}): another stamp at the same size means the file was
   * rewritten, not grown.
   */
  readonly stamp: string;
  /** Its last whole line when that is its end record; empty for a run with no end record (yet). */
  readonly tail: string;
  /** When the file was last written, in ms since 1970 (its modification time). */
  readonly modifiedMs: number;
}

/** What {@link LogFolder.read} read of a run file. */
export interface RunFileRead {
  /** The file's text from `from` to its end. */
  readonly text: string;
  /** Where the text starts: the offset asked for, or 0 when the file no longer holds what was read before it. */
  readonly from: number;
  /** Where the next read starts: after the text's last newline. */
  readonly next: number;
  /** The check of the bytes before `next`, for the next read; empty when none was asked for (`checkNext: false`). */
  readonly check: string;
  /** Whether the file had not changed for `RECENT_MS` when read: else a write in the same clock tick keeps its stamp. */
  readonly settled: boolean;
  /** Whether the file goes on after what one read holds ({@link RUN_FILE_READ_LIMIT}): read on from `next`. */
  readonly more: boolean;
  /**
   * For a read from the file's start: the fingerprint of its first line, as the list gives it
   * ({@link RunFileHead.headHash}), so the page tells another run from the one it read. Else empty.
   */
  readonly headHash: string;
}

/** Options of {@link LogFolder.open}. */
export interface LogFolderOptions {
  /** The clock a file's change time is compared with, in ms since 1970 (tests set it). Default `Date.now`. */
  readonly now?: () => number;
  /** The most one read holds, in bytes (tests set it). Default {@link RUN_FILE_READ_LIMIT}. */
  readonly readLimit?: number;
}

const RUN_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.jsonl$/;
const MEDIA_FILE = /^([A-Za-z0-9_-][A-Za-z0-9._-]*)\.media\/([A-Za-z0-9_-][A-Za-z0-9._-]*)$/;
/**
 * How long after a file's last change its entry is not trusted: two writes within one tick of the file
 * system's clock (a few ms on Linux, up to 2 s on FAT) leave every time the same, so a file read within
 * this long of its change is read again at the next listing (git's "racily clean" entries, the same way).
 */
const RECENT_MS = 2_000;
/**
 * How long a run with no end record may go without a line written and still be called running: a run
 * writes a line per model call and per tool call, so a quiet minute means its process stopped (a crash, a
 * kill) or one call is slow. The page says which it cannot tell.
 */
export const QUIET_MS = 60_000;

/** What a cached entry was read from: the file's state then, and whether it had settled (see RECENT_MS). */
interface Summary {
  readonly stamp: string;
  readonly settled: boolean;
  readonly entry: RunFileEntry;
}

/** The run logs of one folder, or of one file in it. */
export class LogFolder {
  /**
   * Each run file's entry as {@link runs} last read it, with the file's stamp then: a change in the folder
   * reads again only the files that changed, not both ends of every file.
   */
  private summaries = new Map<string, Summary>();

  private constructor(
    /** The folder, its real path. */
    readonly root: string,
    /** The one file's name, when the viewer was given a file. */
    private readonly only: string | undefined,
    private readonly now: () => number,
    private readonly readLimit: number,
  ) {}

  /**
   * The folder (or file) at `target`.
   *
   * @throws Error when it does not exist, cannot be read, or is a file that is not a `.jsonl` run log
   */
  static open(target: string, options: LogFolderOptions = {}): LogFolder {
    const { now = Date.now, readLimit = RUN_FILE_READ_LIMIT } = options;
    let real: string;
    try {
      real = realpathSync(target);
    } catch (error) {
      const missing = (error as { code?: unknown }).code === "ENOENT";
      throw new Error(
        missing
          ? `${target} does not exist: give a run log folder (withRunLog's) or one run's .jsonl file`
          : `${target} cannot be read: ${(error as Error).message}`,
        { cause: error },
      );
    }
    try {
      if (statSync(real).isDirectory()) {
        readdirSync(real); // a folder it cannot list is said now, not shown as an empty one
        return new LogFolder(real, undefined, now, readLimit);
      }
    } catch (error) {
      throw new Error(`${target} cannot be read: ${(error as Error).message}`, { cause: error });
    }
    const name = path.basename(real);
    if (!RUN_FILE.test(name))
      throw new Error(`${target} is not a run log (a .jsonl file) nor a folder of them`);
    return new LogFolder(path.dirname(real), name, now, readLimit);
  }

  /**
   * The run files, newest first (their names start with the time the run began). A file whose stamp is the
   * one of the last call, and had settled then (it changed `RECENT_MS` or more before), is not read again:
   * its entry is the same object.
   */
  runs(): RunFileEntry[] {
    const summaries = new Map<string, Summary>();
    const entries = this.names()
      .sort()
      .reverse()
      .flatMap((name) => {
        const file = this.runFile(name);
        if (!file) return [];
        const stamp = fileStamp(file.stats);
        const known = this.summaries.get(name);
        try {
          const summary =
            known?.settled && known.stamp === stamp
              ? known
              : {
                  stamp,
                  settled: this.settled(file.stats),
                  entry: {
                    name,
                    stamp,
                    modifiedMs: file.stats.mtimeMs,
                    ...edges(file.real, file.stats.size),
                  },
                };
          summaries.set(name, summary);
          return [summary.entry];
        } catch {
          return []; // removed meanwhile (or made a FIFO): not listed
        }
      });
    this.summaries = summaries; // files gone are forgotten
    return entries;
  }

  /**
   * The run files' names and stamps as one text: it changes when a run is added, grows or is rewritten, when
   * a file that changed settles (`RECENT_MS` later), so what was read of it while it changed is read again,
   * once, even when nothing else happens in the folder, and when a file goes quiet (`QUIET_MS` later), so
   * a run whose process stopped is no longer shown as running.
   */
  signature(): string {
    return this.names()
      .map((name) => {
        try {
          const stats = statSync(path.join(this.root, name));
          const changing = this.settled(stats) ? "" : ":changing";
          return `${name}:${fileStamp(stats)}${changing}${this.quiet(stats.mtimeMs) ? ":quiet" : ""}`;
        } catch {
          return name;
        }
      })
      .join("|");
  }

  /** Whether a file last written at `modifiedMs` has not been written for `QUIET_MS` or more. */
  quiet(modifiedMs: number): boolean {
    return this.now() - modifiedMs >= QUIET_MS;
  }

  /** Whether the file changed `RECENT_MS` or more ago: a write after now will show in its stamp. */
  private settled(stats: Stats): boolean {
    return this.now() - stats.ctimeMs >= RECENT_MS;
  }

  /** The run files' names; none when the folder is gone (removed or renamed while the viewer runs). */
  private names(): string[] {
    if (this.only) return [this.only];
    try {
      return readdirSync(this.root).filter((n) => RUN_FILE.test(n));
    } catch {
      return [];
    }
  }

  /**
   * What a file holds from byte `from` to its end, and where the next read starts: after its last newline,
   * so a line still being written (or cut short by a crash) is read again, whole, next time. With `check`
   * (the one the read that ended at `from` gave), the bytes before `from` are checked first ({@link
   * stillHolds}; all of them when `whole`): a file that no longer holds them is read from its start. With
   * `checkNext: false` (a reader that does not read the file again: the `--html` export) no check is made
   * for the next read, which would hash every byte read; its `check` is empty, which holds no bytes.
   */
  read(
    name: string,
    from = 0,
    options: { check?: string; whole?: boolean; checkNext?: boolean } = {},
  ): RunFileRead | undefined {
    const file = this.runFile(name)?.real;
    if (!file) return undefined;
    const opened = openRun(file);
    if (typeof opened === "string") return unreadable(opened);
    if (!opened) return undefined;
    const { fd, stats } = opened;
    try {
      // Anything but a whole number of bytes (`from=abc`, NaN) reads from the start.
      let start = Number.isSafeInteger(from) && from > 0 ? Math.min(from, stats.size) : 0;
      const { check, whole = false, checkNext = true } = options;
      if (start > 0 && check !== undefined && !stillHolds(fd, stats, from, check, whole)) start = 0;
      const { text, next, more } = readBounded(fd, stats.size, start, this.readLimit);
      return {
        text,
        from: start,
        next,
        check: checkNext ? checkOf(fd, stats, start, next, check) : "",
        settled: this.settled(stats),
        more,
        headHash: start === 0 ? headHash(fd, stats.size) : "",
      };
    } finally {
      closeSync(fd);
    }
  }

  /** The real path of a media file (`<run>.media/<file>`) of a run this viewer shows; undefined for any other. */
  mediaFile(relative: string): string | undefined {
    const match = MEDIA_FILE.exec(relative);
    if (!match || (this.only !== undefined && `${match[1]}.jsonl` !== this.only)) return undefined;
    return this.inside(path.join(this.root, relative))?.real;
  }

  /** Whether `file` (when it exists) is a run file of the folder, or a media file of one. */
  holds(file: string): boolean {
    let relative: string;
    try {
      relative = path.relative(this.root, realpathSync(file));
    } catch {
      return false;
    }
    return RUN_FILE.test(relative) || MEDIA_FILE.test(relative.split(path.sep).join("/"));
  }

  /** The real path (and its stats) of a run file of this viewer; undefined for any other name. */
  private runFile(name: string): { real: string; stats: Stats } | undefined {
    if (!RUN_FILE.test(name) || (this.only !== undefined && name !== this.only)) return undefined;
    return this.inside(path.join(this.root, name));
  }

  /** `file`'s real path (and its stats) when it is a regular file inside the folder. */
  private inside(file: string): { real: string; stats: Stats } | undefined {
    try {
      const real = realpathSync(file);
      if (!real.startsWith(`${this.root}${path.sep}`)) return undefined;
      const stats = statSync(real);
      return stats.isFile() ? { real, stats } : undefined;
    } catch {
      return undefined;
    }
  }
}
