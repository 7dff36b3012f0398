/** An OpenAI-style function tool definition. */
export interface OpenAiFunctionTool {
  /** Always `"function"`. */
  readonly type: "function";
  /** The function's name, description and JSON Schema of its parameters. */
  readonly function: {
    readonly name: string;
    readonly description?: string | undefined;
    readonly parameters?: object | undefined;
  };
}

/** OpenAI-style `tool_choice`. */
export type OpenAiToolChoice =
  "auto" | "none" | "required" | { readonly type: "function"; readonly function: { readonly name: string } };

/** A tool as the Codex app-server takes it in `thread/start` `dynamicTools`. */
export interface DynamicToolSpec {
  /** The tool's name. */
  readonly name: string;
  /** What it does, for the model (empty when none was given). */
  readonly description: string;
  /** The JSON Schema of its input (an object with no properties when none was given). */
  readonly inputSchema: object;
}

/**
 * Maps OpenAI-style function tools to Codex `dynamicTools`, honouring `tool_choice`: `"none"` offers no
 * tools, a forced function offers only that one, anything else offers all.
 */
export function buildDynamicTools(
  tools: readonly OpenAiFunctionTool[],
  toolChoice?: OpenAiToolChoice,
): DynamicToolSpec[] {
  if (toolChoice === "none") return [];
  const forced = typeof toolChoice === "object" ? toolChoice.function.name : undefined;
  return tools
    .filter((t) => t.type === "function" && (forced === undefined || t.function.name === forced))
    .map((t) => ({
      name: t.function.name,
      description: t.function.description ?? "",
      inputSchema: t.function.parameters ?? { type: "object", properties: {} },
    }));
}

/** A Codex `item/tool/call` request as the mapping helpers read it. */
export interface DynamicToolRequest {
  /** The tool the model called, by name. */
  readonly tool: string;
  /** Its arguments: an object, or JSON text. */
  readonly arguments: unknown;
  /** The call's id. */
  readonly callId: string;
}

/** An OpenAI-style streaming delta carrying one tool call. */
export interface ToolCallDelta {
  /** The one tool call, its arguments as JSON text. */
  readonly tool_calls: {
    readonly id: string;
    readonly type: "function";
    readonly function: { readonly name: string; readonly arguments: string };
  }[];
}

/** Maps a Codex `item/tool/call` request to an OpenAI-style tool-call delta (arguments as a JSON string). */
export function buildToolCallDeltaFromDynamicRequest(request: DynamicToolRequest): ToolCallDelta {
  const args =
    typeof request.arguments === "string" ? request.arguments : JSON.stringify(request.arguments ?? {});
  return {
    tool_calls: [{ id: request.callId, type: "function", function: { name: request.tool, arguments: args } }],
  };
}
