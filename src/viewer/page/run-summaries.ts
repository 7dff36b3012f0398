// The run list's summaries, each read once from a file's first and last lines: a refresh reads only the
// runs whose lines changed (a run added, a run that grew or was rewritten), and says whether any did.
import { readRunLog } from "../../run-log/read-run-log.js";
import { summarizeRun, type RunSummary } from "../../run-log/run-log-index.js";
import type { LogEntry } from "./log-source.js";

interface Known {
  readonly head: string;
  readonly tail: string;
  readonly stamp: string;
  readonly quiet: boolean | undefined;
  readonly summary: RunSummary;
}

/** The summaries of the runs listed, kept across refreshes. */
export class RunSummaries {
  private known = new Map<string, Known>();

  /**
   * Each entry's summary (the one of the last call when its lines are the same), and whether any run was
   * added, changed or went since the last call.
   */
  of(entries: readonly LogEntry[]): { summaries: RunSummary[]; changed: boolean } {
    const known = new Map<string, Known>();
    let changed = entries.length !== this.known.size;
    const summaries = entries.map((listed) => {
      const { name, head, tail, stamp, quiet } = listed;
      let entry = this.known.get(name);
      // A run with no end record changes with its file (its figures so far), and when it goes quiet.
      if (entry?.head !== head || entry.tail !== tail || entry.stamp !== stamp || entry.quiet !== quiet) {
        changed = true;
        const text = tail && tail !== head ? `${head}\n${tail}\n` : `${head}\n`;
        entry = { head, tail, stamp, quiet, summary: summarizeRun(name, readRunLog(text), listed) };
      }
      known.set(name, entry);
      return entry.summary;
    });
    this.known = known;
    return { summaries, changed };
  }
}
