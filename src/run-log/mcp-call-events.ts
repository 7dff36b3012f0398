// An MCP server's run log makes each call a step: these are the events of one call, and the one that ends
// it. An approval is named by its call's id (see `approvalEvent` in src/mcp).
import { emptyUsage } from "../events/token-usage.js";
import type { ToolLoopEvent } from "../events/tool-loop-event.js";
import type { EndRecord } from "./run-log-format.js";

/** The call an event of an MCP call belongs to; undefined for the events a call's step only holds. */
export function callIdOf(event: ToolLoopEvent): string | undefined {
  switch (event.type) {
    case "ToolCallStarted":
    case "ToolInvoked":
    case "ToolFailed":
      return event.toolCallId;
    case "ApprovalRequested":
    case "ApprovalDecided":
      return event.approvalId;
    default:
      return undefined;
  }
}

/** The last event of an MCP call: its result, its failure, or its approval asked (it waits for the answer). */
export function endsCall(event: ToolLoopEvent): boolean {
  return event.type === "ToolInvoked" || event.type === "ToolFailed" || event.type === "ApprovalRequested";
}

/**
 * The `end` of an MCP server's file, written when its session closes: `completed`, or `awaiting-approval`
 * when a call still waits for a person's answer; its calls as its steps (a server calls no model: no
 * tokens). Without one the viewer showed every closed session as going on.
 */
export function sessionEnd(steps: number, ms: number, waiting: boolean): EndRecord {
  const status = waiting ? "awaiting-approval" : "completed";
  return { type: "end", ms, status, totalIterations: steps, steps, usage: emptyUsage() };
}
