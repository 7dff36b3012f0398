import { InvalidSettingError } from "../errors/entity-tools-error.js";
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
 * @throws InvalidSettingError when `needsApproval` is not a boolean (the AI SDK's function of the input:
 * decide by the input with `runner.withApproval(call => …)`).
 */
export function defineTool<Input = Record<string, unknown>, Output = unknown>(
  definition: ToolDefinition<Input, Output>,
): Tool<Input, Output> {
  refuseInvalidToolName(definition.name);
  const { needsApproval } = definition as { needsApproval?: unknown };
  if (needsApproval !== undefined && typeof needsApproval !== "boolean")
    throw new InvalidSettingError(
      `needsApproval of the tool "${definition.name}"`,
      typeof needsApproval,
      "true or false (to decide by the call's input: runner.withApproval(call => …))",
    );
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema ?? { type: "object", properties: {}, additionalProperties: false },
    execute: definition.execute,
    ...(definition.needsApproval ? { needsApproval: true } : {}),
  };
}
