// A run's `end` record, from its `RunFinished`. Its `usage`, `steps` and `cost` are this file's own (a
// resumed run's file, or a conversation turn's: not what the snapshot it went on from carried), as the
// viewer adds files up; `totalIterations` is the whole run's, and the `costs` record before it names
// each provider's share of the whole run's cost (the result's `cost.perProvider`).
import type { ToolLoopEvent } from "../events/tool-loop-event.js";
import type { EndRecord } from "./run-log-format.js";

/** What the file knows of its own part besides the event: its steps, its clock, its responses' cost. */
export interface OwnPart {
  readonly steps: number;
  readonly ms: number;
  /** Whether inputs, results and messages are recorded (an error's message is one). */
  readonly content: boolean;
  /** This file's `response` records' cost (undefined without pricing). */
  readonly cost: OwnCost | undefined;
}

/** What a file's responses cost: the sum of those whose cost is known, and whether one's is not. */
export interface OwnCost {
  /** USD, the sum of the known costs. */
  readonly usd: number;
  /** A response's provider reported no usage: its cost is unknown (`ModelRespondedEvent.usageUnknown`). */
  readonly unknown: boolean;
}

/** `sum` with one more response's cost: USD, or `"unknown"`. */
export function addedCost(sum: OwnCost | undefined, cost: number | "unknown"): OwnCost {
  const known = cost === "unknown" ? 0 : cost;
  return { usd: (sum?.usd ?? 0) + known, unknown: (sum?.unknown ?? false) || cost === "unknown" };
}

/** The `end` record of a run that finished (`RunFinished`). */
export function runEnd(event: Extract<ToolLoopEvent, { type: "RunFinished" }>, own: OwnPart): EndRecord {
  return {
    type: "end",
    ms: own.ms,
    status: event.status,
    totalIterations: event.totalIterations,
    steps: own.steps,
    usage: event.usage,
    ...(event.error
      ? { error: { name: event.error.name, ...(own.content ? { message: event.error.message } : {}) } }
      : {}),
    ...(event.cost ? { cost: own.cost?.usd ?? 0, ...(own.cost?.unknown ? { costUnknown: true } : {}) } : {}),
  };
}
