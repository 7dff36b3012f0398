import type { ToolFailureReason } from "../../events/tool-loop-event.js";
import { isUntrustedSchema } from "../../schema/untrusted-schema.js";
import { validateAgainst, type ValidationOutcome } from "../../schema/validate.js";
import type { AnyTool } from "../../tools/tool.js";
import type { ModelToolCall } from "../ports/model-port.js";
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
  let validation: ValidationOutcome;
  try {
    validation = validateAgainst(tool.inputSchema, input); // compiled at the tool's first call
  } catch (error) {
    // A server's schema is checked at listing, not compiled (issue 46); one ajv still refuses at its
    // first call (a remote `$ref`) is refused here, and the run goes on. An application's own schema
    // that does not compile is a bug: the run fails with it, as before.
    if (!isUntrustedSchema(tool.inputSchema)) throw error;
    return {
      ok: false,
      reason: "invalid-input",
      message: `The tool "${tool.name}" cannot be called: its schema does not compile (${error instanceof Error ? error.message : String(error)})`,
    };
  }
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
