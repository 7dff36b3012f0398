// The run list of a served page, with what a run with no end record yet has done so far: its steps, tokens
// and cost, added up from its lines (RunTally), and whether it has gone quiet (nothing written for
// QUIET_MS: its process stopped, or a call is slow). A run that ended has its end record's figures, and is
// not read here. A file is read from where the last listing's read ended, checked as the page checks it
// (log-folder.ts), so a run that grows is read once, not at every listing. Its last line is neither
// listed nor kept: the folder's entries hold only an end record (a last call's result can be megabytes).
import { RunTally, type RunSoFar } from "../run-log/run-tally.js";
import type { LogFolder, RunFileEntry } from "./log-folder.js";

/** A run file as the page's run list reads it. */
export interface ListedRun extends RunFileEntry {
  /** For a run with no end record: its steps, tokens and cost so far. */
  readonly soFar?: RunSoFar;
  /** For a run with no end record: true when nothing was written to it for `QUIET_MS` or more. */
  readonly quiet?: boolean;
}

/** What was read of a run with no end record. */
interface Tallied {
  readonly tally: RunTally;
  readonly next: number;
  readonly check: string;
  readonly size: number;
  readonly stamp: string;
  readonly settled: boolean;
}

/** The run list, each run with no end record read as far as it was written. */
export class RunsSoFar {
  private known = new Map<string, Tallied>();

  constructor(private readonly folder: LogFolder) {}

  /** The folder's runs, newest first ({@link LogFolder.runs}), those with no end record with their figures so far. */
  list(): ListedRun[] {
    const known = new Map<string, Tallied>();
    const listed = this.folder.runs().map((entry): ListedRun => {
      if (entry.tail !== "") return entry; // its end record
      const tallied = this.tally(entry);
      if (!tallied) return entry;
      known.set(entry.name, tallied);
      const quiet = this.folder.quiet(entry.modifiedMs);
      return { ...entry, soFar: tallied.tally.soFar, quiet };
    });
    this.known = known; // files gone, or ended, are forgotten
    return listed;
  }

  /** What `entry`'s file adds up to: what was known of it, and what it gained since. */
  private tally(entry: RunFileEntry): Tallied | undefined {
    const before = this.known.get(entry.name);
    if (before?.settled && before.stamp === entry.stamp) return before;
    let read;
    try {
      read = this.folder.read(
        entry.name,
        before?.next ?? 0,
        before ? { check: before.check, whole: entry.size <= before.size } : {},
      );
    } catch {
      return undefined; // removed since it was listed, or unreadable: listed without its figures
    }
    if (!read) return undefined;
    // Read from its start: a new file, or one that no longer holds what was read of it.
    const tally = read.from === 0 || !before ? new RunTally() : before.tally;
    tally.addLines(read.text.slice(0, read.text.lastIndexOf("\n") + 1));
    // A file larger than one read is read on at the next listing, changed or not.
    const { next, check, more } = read;
    const settled = read.settled && !more;
    return { tally, next, check, settled, size: entry.size, stamp: entry.stamp };
  }
}
