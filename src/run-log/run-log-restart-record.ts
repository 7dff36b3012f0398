// A restart's record in the run log's format (run-log-format.ts): browser-safe types only.
import type { RestartCause } from "../events/restart-events.js";
import type { MayHoldCutValues } from "./cut-value.js";

/**
 * The run restarted, one record each restart whatever asked for it (`cause`): again from its prompt (a
 * section read on a backend without dynamic tools, a strategy), or a conversation backend in a new thread.
 */
export interface RestartRecord extends MayHoldCutValues {
  /** `"restart"`: the run started again. */ readonly type: "restart";
  /** The step after which it started again. */
  readonly step: number;
  /** Why, in words (`"restart"` for a strategy's without `recordContent`: its author's words). */
  readonly reason: string;
  /** What asked for it (`RunRestarted.cause`); absent in files written before it was recorded. */
  readonly cause?: RestartCause;
  /** `expansion` only: the sections it expands, by dotted key. */
  readonly sections?: readonly string[];
  /**
   * The tools the restart is for (`RunRestarted.toolNames`): a section's unlocked ones, those that appeared
   * (a new thread), those the backend did not offer in time (a fallback); absent for a strategy's.
   */
  readonly tools?: readonly string[];
}
