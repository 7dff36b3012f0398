import { refuseInvalidToolName } from "./errors.js";
import type { Tool, ToolExecutionContext, ToolInputSchema } from "./tool.js";

/** The definition of a hand-written tool. */
export interface ToolDefinition<Input, Output> {
  /** The name the model calls it by: letters, digits, `_` and `-`, at most 64, first a letter or `_`. */
  name: string;
  /** What the tool does and when to use it, for the model. */
  description: string;
  /** Defaults to an object with no properties. */
  inputSchema?: ToolInputSchema | undefined;
  /** Runs the tool with validated input; what it returns is serialized for the model. */
  execute(input: Input, context: ToolExecutionContext): Output | Promise<Output>;
  /** The run stops before each call until it is approved. */
  needsApproval?: boolean | undefined;
}

/**
 * A tool written by hand rather than by decorating a class. Its input is validated against
 * `inputSchema` before `execute` runs, exactly like a decorated method's.
 *
 * @throws InvalidToolNameError when the name is not valid for every provider.
 */
export function defineTool<Input = Record<string, unknown>, Output = unknown>(
  definition: ToolDefinition<Input, Output>,
): Tool<Input, Output> {
  refuseInvalidToolName(definition.name);
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema ?? { type: "object", properties: {}, additionalProperties: false },
    execute: definition.execute,
    ...(definition.needsApproval ? { needsApproval: true } : {}),
  };
}
