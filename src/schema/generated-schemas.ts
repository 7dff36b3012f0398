import type { ParametersSchema as ToolInputSchema } from "../../decorators/index.js";
import type { JsonSchema } from "./json-schema.js";

/** The generated input schema of one `@LlmTool` method. */
export interface GeneratedToolSchema {
  /** Parameter names in declaration order: how an input object maps to positional arguments. */
  readonly parameters: readonly string[];
  readonly inputSchema: ToolInputSchema;
}

/**
 * What `entity-tools schemas` writes: tool input schemas keyed `Class.method` (the class that declares the
 * method) and structured-output schemas keyed by class name.
 */
export interface GeneratedSchemas {
  readonly tools: Readonly<Record<string, GeneratedToolSchema>>;
  readonly outputs: Readonly<Record<string, JsonSchema>>;
}
