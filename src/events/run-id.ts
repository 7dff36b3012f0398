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

/**
 * Random hex digits not handed out yet, six per id. `randomBytes` is a call into the thread pool's job
 * machinery whatever it is asked for: 3 bytes at a time it took 10–20 µs on a loaded machine, a few per
 * cent of a 20-step run (docs/performance.md, round 14); 768 at a time it is paid once in 256 runs.
 */
let randomHex = "";
let taken = 0;
const IDS_PER_DRAW = 256;

/** The next six random hex digits (3 random bytes) of {@link randomHex}, drawn anew when it runs out. */
function randomPart(): string {
  if (taken >= randomHex.length) {
    randomHex = nodeCrypto()
      .randomBytes(3 * IDS_PER_DRAW)
      .toString("hex");
    taken = 0;
  }
  taken += 6;
  return randomHex.slice(taken - 6, taken);
}

/** A new run's id: when it began and a random part, `2026-11-28T10-21-17-123Z-3f9a1c`. */
export function newRunId(): string {
  last = Math.max(Date.now(), last + 1);
  const time = new Date(last).toISOString().replace(/[:.]/g, "-");
  return `${time}-${randomPart()}`;
}
