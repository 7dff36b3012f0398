import type { ToolFailureReason } from "../../events/tool-loop-event.js";
import { validateAgainst } from "../../schema/validate.js";
import type { AnyTool } from "../../tools/tool.js";
import type { ModelToolCall } from "../model-port.js";
import { inputShapeProblem } from "./input-shape.js";

/** A call that passed resolution: its tool, and its input checked against the tool's schema. */
export interface ResolvedCall {
  readonly call: ModelToolCall;
  readonly tool: AnyTool;
  readonly input: Record<string, unknown>;
}

/** A call ready to run, or why it cannot run (the error result's reason and text). */
export type Resolution =
  | ({ readonly ok: true } & ResolvedCall)
  | { readonly ok: false; readonly reason: ToolFailureReason; readonly message: string };

/**
 * The input rule of a call of `tool`: a JSON object of a safe shape that validates against the schema and
 * that the tool's own check (a handle's signature) accepts. Records nothing: a run also uses it to tell
 * which of a paused message's later calls could run at all.
 */
export function checkToolInput(call: ModelToolCall, tool: AnyTool): Resolution {
  const invalid = (problem: string): Resolution => ({
    ok: false,
    reason: "invalid-input",
    message: `Invalid arguments for "${tool.name}": ${problem}`,
  });
  const problem = inputProblem(call);
  if (problem) return invalid(problem);
  const input = call.input as Record<string, unknown>;
  const validation = validateAgainst(tool.inputSchema, input);
  if (!validation.ok) return invalid(`${validation.problems.join("; ")}.`);
  const refused = tool.checkInput?.(input);
  if (refused !== undefined) return invalid(`${refused}.`);
  return { ok: true, call, tool, input };
}

function inputProblem(call: ModelToolCall): string | undefined {
  if (call.inputError) return `${call.inputError}. Send a JSON object keyed by parameter name.`;
  const input = call.input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    const kind = Array.isArray(input) ? "an array" : input === null ? "null" : `a ${typeof input}`;
    return `expected a JSON object keyed by parameter name, got ${kind}.`;
  }
  const shape = inputShapeProblem(input);
  return shape ? `${shape}.` : undefined;
}
