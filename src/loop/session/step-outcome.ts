import type { ToolResultPart } from "ai";
import type { RestartRequest } from "../../strategies/tool-injection-strategy.js";
import type { PendingApproval } from "../execution/approval-gate.js";

/**
 * What happens after a step of a run, as a value: go on, stop with the final answer, or start again from
 * the prompt because a strategy asked for it. Exceptions are for failures only.
 */
export type StepOutcome =
  /** `reply`: the text sent back to the model (a repair request), for backends that take input turn by turn. */
  | { readonly type: "continue"; readonly reply?: string }
  | { readonly type: "final"; readonly answer: unknown }
  | { readonly type: "restart"; readonly request: RestartRequest }
  /**
   * Calls wait for a person's decision: the run stops before them (resume with a snapshot). `restart`: one
   * that another call of the same turn asked for and the pause won over, applied before the run pauses
   * (see {@link laterStop}).
   */
  | {
      readonly type: "pause";
      readonly pending: readonly PendingApproval[];
      readonly restart?: RestartRequest;
    };

/** What happens after the calls of one response, and each call's result, in order. */
export interface ToolCallsOutcome {
  readonly next: StepOutcome;
  readonly results: readonly ToolResultPart[];
}

/**
 * How a run's attempt ended: with an answer, paused, or asking to start again. What the run added is the
 * run's to tell (`Run.injectedTools`).
 */
export type RunEnd = Exclude<StepOutcome, { type: "continue" }>;

/** How an attempt stops before its answer: to start again, or to wait for a person. */
export type RunStop = Extract<StepOutcome, { type: "restart" } | { type: "pause" }>;

/**
 * The one rule, for every driver, of which stop wins when calls answered together each asked for one (a
 * conversation backend's calls run at once, a resume's waiting messages): `stop` so far, then `next`,
 * which ended after it. The later stop wins, except that a restart never replaces a pause: the caller must
 * be asked about the waiting calls, so the pause wins whatever ended last, and keeps the (latest) restart,
 * so what it changed (the sections a read expands) is applied before the run pauses and is in the snapshot;
 * the resume's thread then offers its tools.
 */
export function laterStop(stop: RunStop | undefined, next: StepOutcome): RunStop | undefined {
  if (next.type === "restart") return stop?.type === "pause" ? { ...stop, restart: next.request } : next;
  if (next.type !== "pause") return stop;
  const restart = next.restart ?? (stop?.type === "restart" ? stop.request : stop?.restart);
  return restart ? { ...next, restart } : next;
}
