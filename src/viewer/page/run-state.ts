// How the page names a run's state, in the run list and in the run's panel alike. A run with no end record
// is `running` while lines are written to it; once none was for a while (log-folder.ts QUIET_MS), or in an
// exported page (which cannot tell), it is `unfinished`, and the page says what it cannot tell: whether its
// process stopped (a crash, a kill) or a call is slow, or whether it still ran when the page was exported.
import type { EndRecord } from "../../run-log/run-log-format.js";

/** What the page knows of a run's state. */
export interface RunState {
  /** Absent: no end record. */
  readonly status: EndRecord["status"] | "open";
  /** For a run with no end record: see `RunSummary.quiet`. */
  readonly quiet?: boolean;
  /** When its file was last written (ms since 1970); absent in an exported page. */
  readonly modifiedMs?: number;
  /** The file has no run header the page can read (another format version, not a run log): no state. */
  readonly unreadable?: boolean;
}

/** The state's word: the end record's status, `running`, `unfinished`, or `unreadable`. */
export function stateLabel({ status, quiet, unreadable }: RunState): string {
  if (unreadable) return "unreadable";
  if (status !== "open") return status;
  return quiet === false ? "running" : "unfinished";
}

/** For an unfinished run, what the page knows and cannot tell of it (its panel says it); undefined for any other. */
export function unfinishedNote(run: RunState): string | undefined {
  const known = unfinishedFact(run);
  if (known === undefined) return undefined;
  return run.modifiedMs === undefined
    ? `${known}: its process stopped, or it still ran when this page was made`
    : `${known}: its process stopped, or a call is slow`;
}

/** For an unfinished run, what the page knows of it (the run list says it); undefined for any other. */
export function unfinishedFact({ status, quiet, modifiedMs, unreadable }: RunState): string | undefined {
  if (unreadable || status !== "open" || quiet === false) return undefined;
  if (modifiedMs === undefined) return "no end record";
  const written = new Date(modifiedMs);
  const today = written.toDateString() === new Date().toDateString();
  return `nothing written since ${today ? written.toLocaleTimeString() : written.toLocaleString()}`;
}
