import type { AnyTool } from "./tool.js";
import { toolMethodOf } from "./tool-methods.js";
import { toDeclaredType } from "./typed-input.js";

/**
 * A validated input as the tool's method declares it: each parameter of `copy` (a fresh copy of the
 * input, which the caller makes and this converts in place) converted to its declared type (a `Date`, a
 * class instance), other properties (a handle) as they are. Changing it changes nothing that runs (the
 * tool converts its own copy). For a tool that is not a decorated method (`defineTool`, an MCP tool) the
 * copy as it is. What an approval rule judges.
 */
export function declaredInputOf(tool: AnyTool, copy: Record<string, unknown>): Record<string, unknown> {
  const method = toolMethodOf(tool);
  if (!method?.types) return copy;
  for (const [name, type] of Object.entries(method.types))
    if (Object.hasOwn(copy, name)) copy[name] = toDeclaredType(copy[name], type);
  return copy;
}
