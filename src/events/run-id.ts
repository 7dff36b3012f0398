// A run's one identity. Every event of a run carries it (`runId`), the run's snapshots name it (`log`), a
// run that goes on from one of them names it as the run it continues (`RunStarted.continues`, the run
// log's `continues`), and a logged run's file is named by it. So it is unique across processes and
// restarts, not a counter of this process: a snapshot resumed in another process names a run that process
// never saw, and must never name one of its own by chance. The time comes first, so ids (and run log
// files) sort by when their runs began: within a process, strictly, since two runs begun in one
// millisecond would otherwise sort by their random parts.
import { nodeCrypto } from "../lazy/node-builtins.js";

/** The time part of this process's last id, in ms: the next one is later, by a millisecond if need be. */
let last = 0;

/** A new run's id: when it began and a random part, `2026-11-28T10-21-17-123Z-3f9a1c`. */
export function newRunId(): string {
  last = Math.max(Date.now(), last + 1);
  const time = new Date(last).toISOString().replace(/[:.]/g, "-");
  return `${time}-${nodeCrypto().randomBytes(3).toString("hex")}`;
}
