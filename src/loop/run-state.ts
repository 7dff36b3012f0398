import type { ModelMessage } from "ai";
import type { RunEvents } from "../events/run-events.js";
import { addUsage, emptyUsage } from "../events/token-usage.js";
import type { AnyTool } from "../tools/tool.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { ToolLoopAbortedError, ToolLoopError, withRun } from "./errors.js";
import type { TokenUsage } from "./model-port.js";
import { markRunHistory } from "./run-history.js";
import type { RunSettings } from "./run-settings.js";
import type { RunSnapshot } from "./run-snapshot.js";
import { liveProviders, writeSnapshot, type SnapshotContext } from "./run-snapshot-writer.js";
import type { PausedCalls, RunRecord } from "./step-outcome.js";

/** What a run state starts from. */
export interface RunStateInit {
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly AnyTool[];
  /** On resume: the discovered tools re-bound to their providers (added without events). */
  readonly restored?: readonly AnyTool[];
  /** On resume: the calls the snapshot's last message left waiting. */
  readonly pending?: PausedCalls;
  readonly settings: RunSettings;
  readonly events: RunEvents;
  /** How the run is written down (what came before this attempt, disclosure state, keys, handles). */
  readonly snapshot?: SnapshotContext;
}

/** The context of a state used on its own (no runner): nothing before it, no disclosure state. */
const FIRST_ATTEMPT: SnapshotContext = {
  earlier: { iterations: 0, usage: emptyUsage() },
  visibility: () => ({}),
};

/**
 * The providers live behind each snapshot this process handed out, by the snapshot object: a conversation
 * continued in the same process re-binds the very objects (their state and dependencies intact) without
 * asking `resolveProvider`. It outlives the run that wrote it (the next run has only the snapshot), so it
 * is the class's, not a state's; weak, so a snapshot nobody holds lets its providers go.
 */
const live = new WeakMap<object, ReadonlyMap<string, object>>();

/**
 * One run attempt's state, in one value: its history (appended to only), tool registry (with its budget),
 * iteration count, token usage, the calls waiting for a decision, and what a snapshot of it needs (the
 * runner's context: earlier attempts, disclosure state, keys, live providers). It writes itself down
 * (`toSnapshot`), is read back from a snapshot (`fromSnapshot`), and builds the error the run ends with
 * (`error`). `RunSession` applies the rules over it.
 */
export class RunState {
  readonly history: ModelMessage[];
  readonly registry: ToolRegistry;
  /** The run's limits. */
  readonly settings: RunSettings;
  /** The run's observers, with its counters (written down with every snapshot). */
  readonly events: RunEvents;
  private iterations = 0;
  private tokens: TokenUsage = emptyUsage();
  private waiting: PausedCalls | undefined;
  private failure: ToolLoopError | undefined;
  private readonly context: SnapshotContext;

  constructor(init: RunStateInit) {
    this.settings = init.settings;
    this.events = init.events;
    this.history = [...init.messages];
    markRunHistory(this.history);
    this.registry = new ToolRegistry(init.tools, {
      maxInjectedTools: init.settings.maxInjectedTools,
      maxInjectedTokens: init.settings.maxInjectedTokens,
    });
    if (init.restored && init.restored.length > 0) this.registry.add(init.restored);
    this.waiting = init.pending;
    this.context = init.snapshot ?? FIRST_ATTEMPT;
  }

  /**
   * The state a snapshot (checked and copied) resumes as: its history, its waiting calls, and its
   * iterations and usage as what came before this attempt.
   */
  static fromSnapshot(
    snapshot: RunSnapshot,
    init: Omit<RunStateInit, "messages" | "pending" | "snapshot"> & {
      readonly snapshot: Omit<SnapshotContext, "earlier">;
    },
  ): RunState {
    return new RunState({
      ...init,
      messages: snapshot.history,
      pending: snapshot.paused,
      snapshot: {
        ...init.snapshot,
        earlier: { iterations: snapshot.iterations, usage: addUsage(emptyUsage(), snapshot.usage) },
      },
    });
  }

  /** The providers live behind a snapshot this process handed out, if it is one (see `live`). */
  static liveProviders(snapshot: RunSnapshot): ReadonlyMap<string, object> | undefined {
    return live.get(snapshot);
  }

  /** Iterations of this attempt so far. */
  get iteration(): number {
    return this.iterations;
  }

  /** Tokens of this attempt so far. */
  get usage(): TokenUsage {
    return { ...this.tokens };
  }

  /** Counts an iteration; returns its number. */
  countIteration(): number {
    return ++this.iterations;
  }

  /** Adds tokens a response or a backend's turn reported. */
  addUsage(usage: Partial<TokenUsage> | undefined): void {
    this.tokens = addUsage(this.tokens, usage);
  }

  /** The calls that wait for a person's decision (a resumed snapshot's, or a batch's that paused). */
  get pending(): PausedCalls | undefined {
    return this.waiting;
  }

  /** Records the calls a batch paused before; `undefined` once a resume answered them. */
  hold(pending: PausedCalls | undefined): void {
    this.waiting = pending;
  }

  /** What this attempt did, for how it ended (`injectedTools`: the executor's). */
  record(injectedTools: readonly AnyTool[]): RunRecord {
    return { history: this.history, iterations: this.iterations, injectedTools, usage: this.usage };
  }

  /**
   * The run as a snapshot now (the one format, see `run-snapshot-writer.ts`): its history, tools,
   * iterations and usage with the earlier attempts', counters, settings and the calls waiting for a
   * decision. The providers live behind it are remembered for a continuation in this process.
   */
  toSnapshot(): RunSnapshot {
    const tools = this.registry.all();
    const view = {
      history: this.history,
      tools,
      iterations: this.iterations,
      usage: this.tokens,
      events: this.events,
      settings: this.settings,
    };
    const snapshot = writeSnapshot(view, this.context, this.waiting);
    live.set(snapshot, liveProviders(snapshot, tools, this.context));
    return snapshot;
  }

  /**
   * The error the run ends with, built once with the run (its history, the iterations of the whole run,
   * a snapshot to resume from): ours in its completed form, anything else wrapped (as a cancellation when
   * `signal` fired). Every call must have its result first (the session closes open calls).
   */
  error(cause: unknown, signal?: AbortSignal): ToolLoopError {
    if (this.failure && cause === this.failure) return this.failure;
    const run = {
      history: this.history,
      iterations: this.context.earlier.iterations + this.iterations,
      snapshot: this.toSnapshot(),
    };
    this.failure =
      cause instanceof ToolLoopError
        ? withRun(cause, run)
        : signal?.aborted
          ? new ToolLoopAbortedError(signal.reason ?? cause, run)
          : new ToolLoopError(`The run failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
              cause,
              run,
            });
    return this.failure;
  }
}
