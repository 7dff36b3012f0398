// A run's one identity. Every event of a run carries it (`runId`), the run's snapshots name it (`log`), a
// run that goes on from one of them names it as the run it continues (`RunStarted.continues`, the run
// log's `continues`), and a logged run's file is named by it. So it is unique across processes and
// restarts, not a counter of this process: a snapshot resumed in another process names a run that process
// never saw, and must never name one of its own by chance. The time comes first, so ids (and run log
// files) sort by when their runs began.
import { nodeCrypto } from "../lazy/node-builtins.js";

/** A new run's id: when it began and a random part, `2026-11-28T10-21-17-123Z-3f9a1c`. */
export function newRunId(now: Date = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, "-")}-${nodeCrypto().randomBytes(3).toString("hex")}`;
}
