import type { ToolRegistry } from "../../tools/tool-registry.js";
import type { ModelToolCall } from "../ports/model-port.js";
import { checkToolInput, type Resolution } from "./check-tool-input.js";
import type { UnknownToolPolicy } from "./unknown-tool-policy.js";

/**
 * The first seam of a tool call: find the tool by name (recording the outcome with the unknown-tool
 * policy) and check the model's input (see {@link checkToolInput}).
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
  return checkToolInput(call, tool);
}
