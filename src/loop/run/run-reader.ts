// How a run is read back: the one place a snapshot given to `resume` or `continueFrom` becomes what a run
// starts from. It is checked (signature, then shape) before anything reads it, and copied: nothing the
// caller holds is what runs, and nothing the run changes is what the caller holds. A run's messages (a
// prompt's, a snapshot's history, a continued conversation's new ones) are refused here, before anything
// runs, when JSON cannot hold them (no provider could be sent them, no snapshot hold them; no approved call
// of a resumed snapshot runs either): a snapshot's history by the copy's own walk (`plainHistoryCopy`), the
// messages no copy is made of by a walk of their own (`checkPlainJson`).
import type { ModelMessage } from "ai";
import type { RunCounters } from "../../events/run-counters.js";
import type { SnapshotCost } from "../../events/run-cost.js";
import { addUsage, emptyUsage } from "../../events/token-usage.js";
import type { KeyRing } from "../../tools/signing-key.js";
import type { PausedCalls, RunSnapshot } from "../snapshot/run-snapshot.js";
import { readSnapshot } from "../snapshot/snapshot-codec.js";
import { checkSnapshotConversation } from "../snapshot/conversation-mismatch-error.js";
import { checkPlainJson, plainHistoryCopy } from "../snapshot/plain-json-history.js";
import { snapshotCopy } from "../snapshot/snapshot-copy.js";
import { NOTHING_BEFORE, type TotalsBefore } from "./run-totals.js";
import { liveProvidersOf } from "./run-writer.js";
import type { SectionOverrides } from "./visibility-store.js";

/** A resumed or continued run's origin: the snapshot it read and what came with it. */
export interface ResumedRun {
  /** The snapshot as checked and copied (the run's own; its `tools` are what is restored). */
  readonly snapshot: RunSnapshot;
  /** The providers a run of this process bound behind the snapshot, re-bound as the very objects. */
  readonly live: ReadonlyMap<string, object> | undefined;
  /** `continueFrom`: the new messages the conversation goes on with. */
  readonly followUp: readonly ModelMessage[] | undefined;
}

/** What a run starts from: a prompt, or everything a snapshot recorded. */
export interface RunOrigin {
  /** The first attempt's conversation. */
  readonly history: readonly ModelMessage[];
  /** The conversation a restart starts again from (a continued conversation's includes its new messages). */
  readonly restartHistory: readonly ModelMessage[];
  /** The calls the conversation's messages left waiting for a decision (see `paused-groups.ts`). */
  readonly paused: PausedCalls | undefined;
  readonly visibility: SectionOverrides;
  /** Iterations, tokens and restarts from the prompt the run had before this call. */
  readonly before: TotalsBefore;
  /** The counters the run had before this call (undefined: none yet). */
  readonly counters: RunCounters | undefined;
  /** The cost the run had before this call (undefined: none yet, or the snapshot was made without pricing). */
  readonly cost: SnapshotCost | undefined;
  readonly resumed: ResumedRun | undefined;
}

/**
 * A new run's origin: the prompt, and the section visibility the caller gave.
 *
 * @throws SnapshotError when the messages hold a value JSON cannot hold, before anything of the run happens
 */
export function promptOrigin(
  messages: readonly ModelMessage[],
  visibility: SectionOverrides = {},
): RunOrigin {
  checkPlainJson({ history: messages }, "start");
  return {
    history: messages,
    restartHistory: messages,
    paused: undefined,
    visibility,
    before: NOTHING_BEFORE,
    counters: undefined,
    cost: undefined,
    resumed: undefined,
  };
}

/**
 * A snapshot's origin: its history, waiting calls, visibility, iterations, usage, counters and cost, from a copy
 * checked with `keys` (see `readSnapshot`), of the conversation `conversationId` when the run has one.
 *
 * @throws SnapshotIntegrityError, SnapshotError; ConversationMismatchError for a snapshot of another
 * conversation; before anything of the run happens
 */
export function snapshotOrigin(
  value: RunSnapshot,
  { keys, conversationId }: { keys?: KeyRing | undefined; conversationId?: string | undefined },
  followUp: readonly ModelMessage[] | undefined,
): RunOrigin {
  const read = readSnapshot(value, keys);
  // After the signature: a snapshot's conversation is as trustworthy as the rest of it.
  if (conversationId !== undefined) checkSnapshotConversation(conversationId, read, "start");
  // The history by a copy of its own, which checks it; the rest (no history, a run's messages) by another.
  const history = plainHistoryCopy(read.history, "start");
  const snapshot: RunSnapshot = { ...snapshotCopy({ ...read, history: [] }), history };
  const restartHistory = [...history, ...(followUp ?? [])];
  checkPlainJson({ history: restartHistory }, "start", history.length);
  return {
    history,
    restartHistory,
    paused: snapshot.paused,
    visibility: snapshot.visibility,
    before: {
      iterations: snapshot.iterations,
      // A turn of a continued conversation answers a new prompt: its model calls and restarts are its own.
      turnIterations: followUp ? 0 : (snapshot.turnIterations ?? snapshot.iterations),
      usage: addUsage(emptyUsage(), snapshot.usage),
      expansions: followUp ? 0 : (snapshot.expansions ?? 0),
    },
    counters: snapshot.counters,
    // A continued conversation's turn goes on with its cost as with its usage: both the conversation's.
    cost: snapshot.cost,
    resumed: { snapshot, live: liveProvidersOf(value), followUp },
  };
}
