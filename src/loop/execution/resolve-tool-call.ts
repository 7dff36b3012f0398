import type { ToolFailureReason } from "../../events/tool-loop-event.js";
import { validateAgainst } from "../../schema/validate.js";
import type { AnyTool } from "../../tools/tool.js";
import type { ToolRegistry } from "../../tools/tool-registry.js";
import type { ModelToolCall } from "../model-port.js";
import { inputShapeProblem } from "./input-shape.js";
import type { UnknownToolPolicy } from "./unknown-tool-policy.js";

/** A call ready to run, or why it cannot run (the error result's reason and text). */
export type Resolution =
  | { readonly ok: true; readonly tool: AnyTool; readonly input: Record<string, unknown> }
  | { readonly ok: false; readonly reason: ToolFailureReason; readonly message: string };

/**
 * The first seam of a tool call: find the tool by name (recording the outcome with the unknown-tool
 * policy) and check the model's input (a JSON object of a safe shape that validates against the schema).
 */
export function resolveToolCall(
  call: ModelToolCall,
  registry: ToolRegistry,
  unknownTools: UnknownToolPolicy,
): Resolution {
  const tool = registry.get(call.toolName);
  unknownTools.record(call.toolName, tool !== undefined);
  if (!tool) {
    return {
      ok: false,
      reason: "unknown-tool",
      message: unknownTools.message(call.toolName, registry.names()),
    };
  }
  const problem = inputProblem(call);
  if (problem)
    return {
      ok: false,
      reason: "invalid-input",
      message: `Invalid arguments for "${tool.name}": ${problem}`,
    };
  const input = call.input as Record<string, unknown>;
  const validation = validateAgainst(tool.inputSchema, input);
  if (!validation.ok) {
    return {
      ok: false,
      reason: "invalid-input",
      message: `Invalid arguments for "${tool.name}": ${validation.problems.join("; ")}.`,
    };
  }
  const refused = tool.checkInput?.(input);
  if (refused !== undefined)
    return {
      ok: false,
      reason: "invalid-input",
      message: `Invalid arguments for "${tool.name}": ${refused}.`,
    };
  return { ok: true, tool, input };
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
