// What a run is written down as: the one place a `RunSnapshot` is made from a live run, for a pause, a
// finished attempt and a failure alike, and the providers live behind it, remembered by the snapshot object
// for a conversation continued in this process (`liveProvidersOf`, which the reader asks).
import type { ModelMessage } from "ai";
import type { RunCounters } from "../../events/run-counters.js";
import type { SnapshotCost } from "../../events/run-cost.js";
import { providerKeyOf } from "../../tools/provider-identity.js";
import type { KeyRing } from "../../tools/signing-key.js";
import type { AnyTool } from "../../tools/tool.js";
import type { TokenUsage } from "../ports/model-port.js";
import {
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  snapshotTool,
  type PausedCalls,
  type RunSnapshot,
  type SnapshotTool,
} from "../snapshot/run-snapshot.js";
import type { RunSettings } from "../settings/run-settings.js";
import { plainHistoryCopy } from "../snapshot/plain-json-history.js";
import { signSnapshot } from "../snapshot/snapshot-codec.js";
import { snapshotCopy } from "../snapshot/snapshot-copy.js";
import type { SectionOverrides } from "./visibility-store.js";

/** What a snapshot records of a run now (the `Run` gives it). */
export interface RunView {
  readonly history: readonly ModelMessage[];
  readonly tools: readonly AnyTool[];
  /** Iterations and tokens of the whole run: earlier attempts and a resumed snapshot's included. */
  readonly iterations: number;
  /** Of those, the ones of the run answering the latest prompt, which `withMaxToolIterations` bounds. */
  readonly turnIterations: number;
  readonly usage: TokenUsage;
  /** Restarts from the prompt of the run, which `withMaxExpansions` bounds. */
  readonly expansions: number;
  readonly counters: RunCounters;
  /** With pricing, the whole run's cost so far (a resumed snapshot's included). */
  readonly cost: SnapshotCost | undefined;
  readonly settings: RunSettings;
  /** The section visibility overrides now. */
  readonly visibility: SectionOverrides;
  /** The calls that wait for a person's decision. */
  readonly paused: PausedCalls | undefined;
  /** Keys that sign every snapshot (the first one signs). */
  readonly keys?: KeyRing;
  /** The run's id (its events' `runId`), which a run going on from the snapshot `continues`. */
  readonly log: string;
  /** The stored conversation the run is a turn of, when it is known (see `RunSnapshot.conversationId`). */
  readonly conversationId: string | undefined;
  /** The providers live behind handles now (handles mode), by `providerKeyOf(identity)`. */
  readonly handles: ReadonlyMap<string, object> | undefined;
}

/**
 * The providers live behind each snapshot this process handed out, by the snapshot object: a conversation
 * continued in the same process re-binds the very objects (their state and dependencies intact) without
 * asking `resolveProvider`. It outlives the run that wrote it (the next run has only the snapshot), so it
 * is the module's, not a run's; weak, so a snapshot nobody holds lets its providers go.
 */
const live = new WeakMap<object, ReadonlyMap<string, object>>();

/**
 * The snapshot of a run now (signed when the run has keys); its live providers are remembered.
 *
 * @throws SnapshotError when the history holds a value JSON cannot hold (a model of the caller's own made it)
 */
export function writeSnapshot(run: RunView): RunSnapshot {
  const snapshot = signSnapshot(
    {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      history: plainHistoryCopy(run.history, "snapshot"),
      tools: run.tools.map(snapshotTool),
      ...(run.paused ? { paused: snapshotCopy(run.paused) } : {}),
      visibility: run.visibility,
      iterations: run.iterations,
      ...(run.turnIterations !== run.iterations ? { turnIterations: run.turnIterations } : {}),
      usage: { ...run.usage },
      ...(run.expansions > 0 ? { expansions: run.expansions } : {}),
      counters: { ...run.counters },
      ...(run.cost ? { cost: run.cost } : {}),
      settings: { ...run.settings },
      log: run.log,
      ...(run.conversationId === undefined ? {} : { conversationId: run.conversationId }),
    },
    run.keys,
  );
  live.set(snapshot, liveProviders(snapshot, run.tools, run.handles));
  return snapshot;
}

/** The providers live behind a snapshot this process handed out, if it is one (see `live`). */
export function liveProvidersOf(snapshot: RunSnapshot): ReadonlyMap<string, object> | undefined {
  return live.get(snapshot);
}

/**
 * The providers live behind `snapshot` (written from `tools`, in order): each discovered tool's, by the key
 * the snapshot's entries give, and those behind handles.
 */
function liveProviders(
  snapshot: RunSnapshot,
  tools: readonly AnyTool[],
  handles: ReadonlyMap<string, object> | undefined,
): Map<string, object> {
  const providers = new Map<string, object>();
  snapshot.tools.forEach((entry: SnapshotTool, i) => {
    const instance = tools[i]!.origin?.instance;
    if ("idType" in entry && instance) providers.set(providerKeyOf(entry), instance);
  });
  for (const [key, provider] of handles ?? []) providers.set(key, provider);
  return providers;
}
