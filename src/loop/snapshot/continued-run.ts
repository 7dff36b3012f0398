import type { RunSnapshot } from "./run-snapshot.js";

/**
 * The run a snapshot names as its own (`log`, its events' `runId`), which a run going on from it (`resume`,
 * `continueFrom`) continues: its `RunStarted.continues` and its run log's `continues`. Read before the
 * snapshot is checked (the run log starts first), so anything but a string is none.
 */
export function continuedRun(snapshot: RunSnapshot): string | undefined {
  const log = (snapshot as { log?: unknown } | undefined)?.log;
  return typeof log === "string" ? log : undefined;
}
