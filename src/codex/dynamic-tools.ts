/** An OpenAI-style function tool definition. */
export interface OpenAiFunctionTool {
  readonly type: "function";
  readonly function: { readonly name: string; readonly description?: string; readonly parameters?: object };
}

/** OpenAI-style `tool_choice`. */
export type OpenAiToolChoice =
  "auto" | "none" | "required" | { readonly type: "function"; readonly function: { readonly name: string } };

/** A tool as the Codex app-server takes it in `thread/start` `dynamicTools`. */
export interface DynamicToolSpec {
  readonly name: string;
  readonly description: string;
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
  readonly tool: string;
  readonly arguments: unknown;
  readonly callId: string;
}

/** An OpenAI-style streaming delta carrying one tool call. */
export interface ToolCallDelta {
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
