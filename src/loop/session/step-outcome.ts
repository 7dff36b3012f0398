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
  /**
   * `requests`: the restarts the calls asked for, in the order they ended, one restart in all (a step
   * backend's message stops at its first; a conversation backend's calls of one turn may each ask for one,
   * see {@link laterStop}).
   */
  | { readonly type: "restart"; readonly requests: readonly RestartRequest[] }
  /**
   * Calls wait for a person's decision: the run stops before them (resume with a snapshot). `restarts`:
   * those that other calls of the same turn asked for and the pause won over, applied before the run
   * pauses (see {@link laterStop}).
   */
  | {
      readonly type: "pause";
      readonly pending: readonly PendingApproval[];
      readonly restarts?: readonly RestartRequest[];
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
 * The one rule, for every driver, of how calls answered together that each asked to stop end the run (a
 * conversation backend's calls run at once, a resume's waiting messages): `stop` so far, then `next`,
 * which ended after it. Restarts add up: the run restarts once, for every one of them (two section reads
 * expand both sections, see `oneRestart`), rather than the later replacing the earlier, which would make
 * the model ask again for what it had asked, another restart. A restart never replaces a pause: the
 * caller must be asked about the waiting calls, so the pause wins whatever ended last, and keeps every
 * restart, so what they changed (the sections a read expands) is applied before the run pauses and is in
 * the snapshot; the resume's thread then offers their tools.
 */
export function laterStop(stop: RunStop | undefined, next: StepOutcome): RunStop | undefined {
  if (next.type !== "restart" && next.type !== "pause") return stop;
  const restarts = [...restartsOf(stop), ...restartsOf(next)];
  const pause = next.type === "pause" ? next : stop?.type === "pause" ? stop : undefined;
  if (pause) return restarts.length > 0 ? { ...pause, restarts } : pause;
  return { type: "restart", requests: restarts };
}

function restartsOf(stop: RunStop | undefined): readonly RestartRequest[] {
  if (stop?.type === "restart") return stop.requests;
  return stop?.type === "pause" ? (stop.restarts ?? []) : [];
}
