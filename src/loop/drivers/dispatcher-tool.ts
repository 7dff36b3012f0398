import type { ModelToolCall } from "../ports/model-port.js";
import type { AnyTool } from "../../tools/tool.js";
import { checkToolInput } from "../execution/check-tool-input.js";

export const DISPATCHER_TOOL = "call_discovered_tool";

/**
 * The fixed tool a client with fixed tools gets in `dispatch` mode (the Codex backend's, or an MCP
 * server's for clients that ignore `list_changed`): it reaches tools discovered after the conversation
 * started, by name. Its `execute` is never used: whoever receives the call unwraps it and runs the named
 * tool through the executor, so validation, errors and strategies apply as usual.
 */
export const dispatcherTool: AnyTool = {
  name: DISPATCHER_TOOL,
  description:
    "Call a tool that was discovered during this conversation (their names and input schemas are listed in the results that discovered them).",
  inputSchema: {
    type: "object",
    properties: {
      tool_name: { type: "string", description: "The discovered tool's name" },
      arguments: { type: "object", description: "The tool's input, as its schema describes" },
    },
    required: ["tool_name"],
    additionalProperties: false,
  },
  execute: () => {
    throw new Error(`${DISPATCHER_TOOL} is routed by the conversation loop`);
  },
};

/**
 * Why a call of the dispatcher reaches no tool, as its error result says it: its input does not fit the
 * dispatcher's schema (no `tool_name`, `arguments` not an object), or it names the dispatcher itself.
 * Undefined for any other call.
 */
export function dispatchProblem(call: ModelToolCall): string | undefined {
  if (call.toolName !== DISPATCHER_TOOL) return undefined;
  const checked = checkToolInput(call, dispatcherTool);
  if (!checked.ok) return checked.message;
  if (checked.input.tool_name !== DISPATCHER_TOOL) return undefined;
  return `Invalid arguments for "${DISPATCHER_TOOL}": "tool_name" names a discovered tool, not ${DISPATCHER_TOOL} itself.`;
}

/**
 * A call where the dispatcher is offered, opened: the call it stands for (or the call itself, when it is
 * not a dispatcher call), or {@link dispatchProblem}'s reason it reaches no tool, which its driver answers
 * with an `invalid-input` error result (`ToolCallExecutor.refuse`). Every driver that offers the
 * dispatcher opens its calls here, so the model reads the same error on every backend.
 */
export function unwrapDispatch(call: ModelToolCall): { call: ModelToolCall } | { problem: string } {
  const problem = dispatchProblem(call);
  if (problem !== undefined) return { problem };
  if (call.toolName !== DISPATCHER_TOOL) return { call };
  const input = call.input as { tool_name: string; arguments?: unknown };
  return {
    call: { toolCallId: call.toolCallId, toolName: input.tool_name, input: input.arguments ?? {} },
  };
}

/** The note that tells the model how to reach tools that appeared, in `dispatch` mode. */
export function dispatchNotice(tools: readonly AnyTool[]): string {
  const lines = tools.map(
    (t) => `- ${t.name}: ${t.description}. Input schema: ${JSON.stringify(t.inputSchema)}`,
  );
  return `New tools are available through ${DISPATCHER_TOOL} (pass tool_name and arguments):\n${lines.join("\n")}`;
}
