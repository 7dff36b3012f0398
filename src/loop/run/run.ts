import type { ModelMessage } from "ai";
import { restoreCounters } from "../../events/run-counters.js";
import type { RunEvents } from "../../events/run-events.js";
import type { RunDiscovery } from "../../strategies/tool-provider-strategy.js";
import type { KeyRing } from "../../tools/signing-key.js";
import type { AnyTool } from "../../tools/tool.js";
import { ToolRegistry } from "../../tools/tool-registry.js";
import { ApprovalGate, type ApprovalDecision, type ApprovalPredicate } from "../execution/approval-gate.js";
import { ToolLoopError, type RunFailure } from "../errors/errors.js";
import { RunAdditions } from "./run-additions.js";
import { markRunHistory } from "./run-history.js";
import type { RunSettings } from "../settings/run-settings.js";
import type { RunSnapshot } from "../snapshot/run-snapshot.js";
import { answerIndexOf, pausedGroups, pausedOf, type WaitingCalls } from "../snapshot/paused-groups.js";
import { failureOf } from "./run-failure.js";
import { promptOrigin, snapshotOrigin, type ResumedRun, type RunOrigin } from "./run-reader.js";
import { RunTotals } from "./run-totals.js";
import { writeSnapshot } from "./run-writer.js";
import { VisibilityStore, type SectionOverrides } from "./visibility-store.js";
import { SnapshotError } from "../snapshot/snapshot-error.js";

/** What every run is made with: the runner's configuration for it. */
export interface RunInit {
  readonly settings: RunSettings;
  /** The run's observers, with its counters (written down with every snapshot) and its cost. */
  readonly events: RunEvents;
  /** Which calls need a person's approval, besides tools marked `needsApproval`. */
  readonly approval?: ApprovalPredicate;
  /** Keys that sign every snapshot and that a snapshot read back must verify against (first one signs). */
  readonly keys?: KeyRing;
  /** The stored conversation the run is a turn of (see `RunSnapshot.conversationId`). */
  readonly conversationId?: string | undefined;
}

/** Where a resumed or continued run goes on from. */
export interface RunResume {
  readonly snapshot: RunSnapshot;
  /** Decisions on the calls the snapshot paused before, by `approvalId`. */
  readonly approvals: Readonly<Record<string, ApprovalDecision>>;
  /** `continueFrom`: the new messages the conversation goes on with. */
  readonly followUp?: readonly ModelMessage[];
}

/** Where a failing run stood: the conversation and the snapshot its error carries. */
type RunPoint = Omit<RunFailure, "iterations">;

/** One attempt: what a restart starts again (the conversation from the prompt, the tools offered). */
interface Attempt {
  readonly history: ModelMessage[];
  readonly registry: ToolRegistry;
}

/**
 * A whole run, from its first step to its last resume, in one value made before anything of it can fail:
 * its totals (iterations and tokens, across restarts and the snapshot it resumed from), its counters, the
 * section visibility, the approval decisions, the discoveries (one per run: handles stay live across
 * restarts), the tools it added, the calls waiting for a decision, and the current attempt (history, tool
 * registry). It is read from a snapshot only by {@link Run.fromSnapshot} (`run-reader.ts`), written down
 * only by {@link Run.toSnapshot} (`run-writer.ts`), and ends with the error {@link Run.fail} gives.
 */
export class Run {
  readonly settings: RunSettings;
  readonly events: RunEvents;
  /** The section visibility overrides (disclosure's state). */
  readonly visibility: VisibilityStore;
  /** The approval rule and the decisions given on resume. */
  readonly approvals: ApprovalGate;
  /** For a resumed or continued run, the snapshot it read (checked, copied) and what came with it. */
  readonly resumed: ResumedRun | undefined;
  /** Iterations, tokens and restarts from the prompt of the whole run, and this call's tokens. */
  readonly totals: RunTotals;
  private readonly keys: KeyRing | undefined;
  private readonly conversationId: string | undefined; // the caller's, else its snapshot's
  private readonly origin: RunOrigin;
  private waiting: readonly WaitingCalls[];
  private attempt: Attempt | undefined;
  /** A resumed run's discovered tools, re-bound from its snapshot (see `startAttempt`). */
  private restored: readonly AnyTool[] = [];
  private discoveries: readonly RunDiscovery[] | undefined;
  /** Every tool the run added, across its attempts (see `recordAdded`). */
  private readonly additions: RunAdditions;

  private constructor(init: RunInit, origin: RunOrigin, decisions?: RunResume["approvals"]) {
    this.settings = init.settings;
    this.events = init.events;
    this.keys = init.keys;
    this.conversationId = init.conversationId ?? origin.resumed?.snapshot.conversationId;
    this.origin = origin;
    this.resumed = origin.resumed;
    this.totals = new RunTotals(origin.before);
    this.visibility = new VisibilityStore(origin.visibility);
    this.waiting = pausedGroups(origin.paused);
    this.approvals = new ApprovalGate(
      init.approval,
      decisions,
      this.waiting.flatMap((g) => g.calls),
    );
    this.additions = new RunAdditions(init.events.counters);
    if (origin.counters) restoreCounters(this.events.counters, origin.counters);
    if (origin.cost) this.events.restoreCost(origin.cost);
  }

  /** A new run of `messages` (the prompt), with the section visibility the caller gave. */
  static start(init: RunInit, messages: readonly ModelMessage[], visibility?: SectionOverrides): Run {
    return new Run(init, promptOrigin(messages, visibility));
  }

  /**
   * The run a snapshot resumes (or, with `followUp`, continues): its history, waiting calls, visibility,
   * iterations, usage and counters, read from a checked copy (see `run-reader.ts`).
   *
   * @throws SnapshotIntegrityError, SnapshotError, ConversationMismatchError before anything of the run happens
   */
  static fromSnapshot(init: RunInit, resume: RunResume): Run {
    return new Run(init, snapshotOrigin(resume.snapshot, init, resume.followUp), resume.approvals);
  }

  /**
   * Starts an attempt with `tools` (and, on a resumed run's first attempt, `restored`: the discovered tools
   * re-bound, added without events to every attempt, since a restart starts again from the snapshot's
   * history, which found them): the first from the run's origin (with its waiting calls), a restart from
   * the prompt again (a resumed run's: its snapshot's history, and a continued conversation's new messages).
   * A resumed run's restored tools not offered up front are what it added before its pause: listed, not
   * counted (its snapshot's counters did); a continued conversation's are an earlier turn's, not listed.
   */
  startAttempt(tools: readonly AnyTool[], restored: readonly AnyTool[] = []): void {
    const first = this.attempt === undefined;
    if (first) {
      this.restored = restored;
      this.events.rebound(restored);
    }
    const history = first ? [...this.origin.history] : this.restartHistory();
    markRunHistory(history);
    const registry = new ToolRegistry(tools, {
      maxInjectedTools: this.settings.maxInjectedTools,
      maxInjectedTokens: this.settings.maxInjectedTokens,
    });
    const kept = this.restored.length > 0 ? registry.add(this.restored) : undefined;
    if (first && kept && !this.origin.resumed?.followUp) this.additions.restore(kept.added);
    this.additions.newAttempt();
    if (!first) this.waiting = [];
    this.attempt = { history, registry };
  }

  /** The discoveries of the run, started on its first attempt with `start`; the same ones after. */
  discover(start: () => RunDiscovery[]): readonly RunDiscovery[] {
    return (this.discoveries ??= start());
  }

  /** The attempt's conversation (appended to only: see `run-history.ts`). */
  get history(): ModelMessage[] {
    return this.current.history;
  }

  /** The attempt's tools, with its budget. */
  get registry(): ToolRegistry {
    return this.current.registry;
  }

  /** The tools offered now. */
  tools(): readonly AnyTool[] {
    return this.current.registry.all();
  }

  /** The names of the tools offered now. */
  toolNames(): readonly string[] {
    return this.current.registry.names();
  }

  /** Appends a message that is not a model response (a driver's continuation prompt, a partial turn). */
  append(...messages: ModelMessage[]): void {
    this.current.history.push(...messages);
  }

  /**
   * The number of the run's latest step, the one rule for every place that numbers steps (events, a
   * stream's `step-finish`, a strategy's `iterationCount`, and through the events telemetry, the run log,
   * the debug log and the cost): the run's model calls answering its prompt so far, what
   * `withMaxToolIterations` counts. A restart (a new attempt, a backend's new thread) and a resume go on
   * counting; a continued conversation's turn, a new prompt, counts from 1 (see `TotalsBefore.turnIterations`).
   */
  get iteration(): number {
    return this.totals.turnIterations;
  }

  /** Counts an iteration of the run; returns its number (see {@link Run.iteration}). */
  countIteration(): number {
    this.totals.countIteration();
    return this.iteration;
  }

  /**
   * Records and counts (`counters.toolsInjected`) the tools an addition injected. One an earlier attempt
   * added that this one adds again (a restart) is the same addition: it keeps its place, bound anew.
   */
  recordAdded(tools: readonly AnyTool[]): void {
    this.additions.record(tools);
  }

  /**
   * Every tool added during the run, in order: each attempt's (one an attempt after a restart adds again
   * listed once) and, for a resumed run, the discovered tools its snapshot held (what a snapshot records:
   * the tools offered when it was made, so one evicted or removed before it is not among them).
   */
  get injectedTools(): readonly AnyTool[] {
    return this.additions.list();
  }

  /** The calls that wait for a decision, by message (a resumed snapshot's, or the batches' that paused). */
  get pending(): readonly WaitingCalls[] {
    return this.waiting;
  }

  /** Adds the calls a batch paused before to those held so far; `undefined`: a resume answers all now. */
  hold(pending: WaitingCalls | undefined): void {
    this.waiting = pending ? [...this.waiting, pending] : [];
  }

  /**
   * The run as a snapshot now (the one format, see `run-writer.ts`): the attempt's history and tools, the
   * whole run's iterations, usage, counters and (with pricing) cost, the visibility, settings and the calls waiting for a
   * decision. The providers live behind it are remembered for a continuation in this process.
   */
  toSnapshot(): RunSnapshot {
    return writeSnapshot({
      history: this.history,
      tools: this.tools(),
      iterations: this.totals.iterations,
      turnIterations: this.totals.turnIterations,
      usage: this.totals.usage,
      expansions: this.totals.expansions,
      counters: this.events.counters,
      cost: this.events.savedCost,
      settings: this.settings,
      visibility: this.visibility.snapshot(),
      paused: pausedOf(this.waiting),
      keys: this.keys,
      log: this.events.runId,
      conversationId: this.conversationId,
      handles: this.discoveries?.find((d) => d.handles)?.handles?.bindings.liveProviders(),
    });
  }

  /**
   * The error the run ends with, the run attached once (its history, the whole run's iterations, a snapshot
   * to resume from): the very error thrown when it is ours or a backend's `ToolLoopError` (any subclass,
   * its own fields kept), anything else wrapped (as a cancellation when `signal` fired). `at` is where the
   * run stood: by default the attempt's history, every call with its result (the session closes open calls
   * first), and a snapshot of the run now; before an attempt's first step, see {@link Run.failBeforeStep}.
   *
   * @throws SnapshotError, its cause the run's own error (without a snapshot), when the history is not plain JSON
   */
  fail(cause: unknown, signal?: AbortSignal, at?: RunPoint): ToolLoopError {
    const iterations = this.totals.iterations;
    if (at) return failureOf(cause, { ...at, iterations }, signal);
    let snapshot: RunSnapshot;
    try {
      snapshot = this.toSnapshot();
    } catch (notPlain) {
      // A history JSON cannot hold: that error, with the run's own (its conversation) as cause.
      if (!SnapshotError.isInstance(notPlain)) throw notPlain;
      const failure = failureOf(cause, { history: this.history, iterations }, signal);
      throw new SnapshotError(notPlain.message, { cause: failure });
    }
    return failureOf(cause, { history: this.history, snapshot, iterations }, signal);
  }

  /**
   * An error raised before an attempt's first step (a source down or clashing, a cancellation while the
   * sources are listed or tools restored), ended as {@link Run.fail} ends any other, at the conversation as
   * it stood and, for a resumed or continued run, the snapshot it came from (nothing of the attempt
   * happened to write down), so it can be resumed later; a cancellation is a `ToolLoopAbortedError`
   * whatever the source rejected with. Anything else (a snapshot that does not fit the runner, a schema
   * error) is the caller's to fix and goes as it is.
   */
  failBeforeStep(error: unknown, signal?: AbortSignal): unknown {
    if (!(error instanceof ToolLoopError) && !signal?.aborted) return error;
    const history = this.attempt ? this.restartHistory() : this.origin.history;
    return this.fail(error, signal, { history, snapshot: this.resumed?.snapshot });
  }

  /**
   * The conversation a restart starts again from: the origin's, with the calls a resumed snapshot left
   * waiting answered as the first attempt answered them (they ran, or were refused, once: a restart neither
   * runs them again nor sends the model a call without its result).
   */
  private restartHistory(): ModelMessage[] {
    const history = [...this.origin.restartHistory];
    for (const group of pausedGroups(this.origin.paused)) {
      const answered = answerIndexOf(this.origin.history, group)!;
      history[answered] = this.current.history[answered]!;
    }
    return history;
  }

  private get current(): Attempt {
    if (!this.attempt) throw new Error("The run has no attempt yet (startAttempt first)");
    return this.attempt;
  }
}
