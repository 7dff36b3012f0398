// What a run is written down as: the one place a `RunSnapshot` is made from a live run, for a pause, a
// finished attempt and a failure alike, and the providers live behind it (which `RunState` remembers for
// a continuation in the same process). The runner gives the context (what came before this attempt, the
// disclosure state, the keys); the run state gives everything else.
import type { ModelMessage } from "ai";
import type { RunEvents } from "../events/run-events.js";
import { addUsage } from "../events/token-usage.js";
import { providerKeyOf } from "../tools/provider-identity.js";
import type { KeyRing } from "../tools/signing-key.js";
import type { AnyTool } from "../tools/tool.js";
import type { TokenUsage } from "./model-port.js";
import {
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  snapshotTool,
  type RunSnapshot,
  type SnapshotTool,
} from "./run-snapshot.js";
import type { RunSettings } from "./run-settings.js";
import { signSnapshot } from "./snapshot-codec.js";
import { snapshotCopy } from "./snapshot-copy.js";
import type { PausedCalls } from "./step-outcome.js";

/** What a snapshot needs from outside the attempt's session. */
export interface SnapshotContext {
  /** Iterations and tokens of the run before this attempt (earlier attempts, the resumed snapshot). */
  readonly earlier: { readonly iterations: number; readonly usage: TokenUsage };
  /** The disclosure state (section visibility overrides) now. */
  readonly visibility: () => Readonly<Record<string, string>>;
  /** Keys that sign every snapshot (the first one signs). */
  readonly keys?: KeyRing;
  /** The providers live behind handles now (handles mode), by `providerKeyOf(identity)`. */
  readonly handles?: () => ReadonlyMap<string, object>;
}

/** The state of an attempt a snapshot records. */
export interface RunStateView {
  readonly history: readonly ModelMessage[];
  readonly tools: readonly AnyTool[];
  readonly iterations: number;
  readonly usage: TokenUsage;
  readonly events: RunEvents;
  readonly settings: RunSettings;
}

/** The snapshot of a run now (signed when the context has keys); `paused`: the calls that wait. */
export function writeSnapshot(
  state: RunStateView,
  context: SnapshotContext,
  paused?: PausedCalls,
): RunSnapshot {
  return signSnapshot(
    {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      history: snapshotCopy(state.history),
      tools: state.tools.map(snapshotTool),
      ...(paused ? { paused: structuredClone(paused) } : {}),
      visibility: context.visibility(),
      iterations: context.earlier.iterations + state.iterations,
      usage: addUsage(context.earlier.usage, state.usage),
      counters: { ...state.events.counters },
      settings: { ...state.settings },
    },
    context.keys,
  );
}

/**
 * The providers live behind `snapshot` (written from `tools`, in order): each discovered tool's, by the key
 * the snapshot's entries give, and those behind handles.
 */
export function liveProviders(
  snapshot: RunSnapshot,
  tools: readonly AnyTool[],
  context: SnapshotContext,
): Map<string, object> {
  const providers = new Map<string, object>();
  snapshot.tools.forEach((entry: SnapshotTool, i) => {
    const instance = tools[i]!.origin?.instance;
    if ("idType" in entry && instance) providers.set(providerKeyOf(entry), instance);
  });
  for (const [key, provider] of context.handles?.() ?? []) providers.set(key, provider);
  return providers;
}
