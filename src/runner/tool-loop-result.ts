import type { ModelMessage } from "ai";
import type { RunCost } from "../events/run-cost.js";
import type { RunCounters } from "../events/run-counters.js";
import type { VisibilitySnapshot } from "../disclosure/section-visibility.js";
import type { PendingApproval } from "../loop/execution/approval-gate.js";
import type { TokenUsage } from "../loop/ports/model-port.js";
import type { RunSnapshot } from "../loop/snapshot/run-snapshot.js";
import type { AnyTool } from "../tools/tool.js";

/**
 * What a run returns: completed with its answer, or paused before calls that need approval. Narrow on
 * `status` to read the answer: `if (run.status === "completed") run.result` is the answer's type `T`.
 */
export type ToolLoopResult<T> = CompletedRun<T> | AwaitingApprovalRun;

/** A run that finished with an answer. */
export interface CompletedRun<T> extends RunOutcomeFields {
  /** `"completed"`: the run finished with an answer. */
  readonly status: "completed";
  /** The answer: text, or the structured output (a class instance when the target was a class). */
  readonly result: T;
  /** Empty: a completed run waits for nothing. */
  readonly pendingApprovals: readonly PendingApproval[];
}

/** A run paused before tool calls that need a decision; `resume` it with the decisions. */
export interface AwaitingApprovalRun extends RunOutcomeFields {
  /** `"awaiting-approval"`: the run paused until a person decides. */
  readonly status: "awaiting-approval";
  /** No answer yet: the run has not finished. */
  readonly result?: undefined;
  /** The calls that wait for a decision; decide them in `resume`. */
  readonly pendingApprovals: readonly PendingApproval[];
}

/** What every run reports, completed or paused. */
export interface RunOutcomeFields {
  /** The run as plain JSON, to resume from (in this process or another). */
  readonly snapshot: RunSnapshot;
  /** The whole conversation as AI SDK messages, tool calls and results included. */
  readonly conversationHistory: readonly ModelMessage[];
  /**
   * Iterations: model responses the run handled (model calls on the AI SDK; tool calls and final messages
   * on Codex), across restarts, a resumed run's part before its pause and a continued conversation's earlier
   * turns. Equals `counters.modelCalls`. (`withMaxToolIterations` bounds those of the run answering this
   * prompt: the earlier turns' are not counted against it.)
   */
  readonly totalIterations: number;
  /**
   * Every tool added during the run, in order; one an attempt adds again after a restart is listed once,
   * at its first place (`counters.toolsInjected` counts this list). A continued conversation's turn lists
   * its own additions.
   */
  readonly injectedTools: readonly AnyTool[];
  /**
   * Tokens of the whole run (input, output, cached input, reasoning), as the backend reported them (0 where
   * it did not); a resumed run's include the part before the pause, a continued conversation's turn's the
   * earlier turns'.
   */
  readonly usage: TokenUsage;
  /**
   * With `withPricing`: what the run cost, per step and per discovered provider, over what `usage` covers
   * (a resumed run's part before the pause, a continued conversation's earlier turns, from the snapshot's
   * `cost`; nothing of a snapshot written without pricing). Never add up turns' `cost.total`; this call's own
   * is `callCost`.
   */
  readonly cost?: RunCost;
  /**
   * With `withPricing`: USD of this call of `run`/`stream`/`resume` alone, as `RunFinishedEvent.callCost`
   * (a resumed run's part before the pause and a continued conversation's earlier turns not included, unlike
   * `cost`). Added up over a conversation's turns (and a paused run's parts) it is what they cost, each model
   * call counted once: the latest `cost.total`. A model call of unknown cost (`cost.unknownCostSteps`) is
   * left out, as from `cost.total`.
   */
  readonly callCost?: number;
  /**
   * The run's counters: model calls, tool calls and failures, tools added (one for each tool
   * `injectedTools` lists), providers found, expansions and restarts (see `RunCounters`).
   */
  readonly counters: RunCounters;
  /** Section visibility at the end of the run: pass it as `visibility` to resume in the same state. */
  readonly visibility: VisibilitySnapshot;
}
