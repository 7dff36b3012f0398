import {
  generateText,
  InvalidToolInputError,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  type ToolSet,
} from "ai";
import type { JSONSchema7 } from "@ai-sdk/provider";
import { MAX_INPUT_DEPTH } from "../loop/execution/input-shape.js";
import type { AnyTool } from "../tools/tool.js";
import { guardDeepArguments } from "./deep-arguments-guard.js";
import type { ModelAdapter, ModelStepRequest, ModelStepResult, ModelToolCall } from "../loop/model-port.js";

/** Settings passed through to every `generateText` call. */
export interface AiSdkAdapterSettings {
  /** Retries of a failed model call (HTTP 429, 5xx); the AI SDK's default is 2. */
  readonly maxRetries?: number;
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  /** Provider-specific options, as `generateText` takes them. */
  readonly providerOptions?: Parameters<typeof generateText>[0]["providerOptions"];
}

/**
 * Any AI SDK `LanguageModel` as a {@link ModelAdapter}: each step is one `generateText` call whose tools
 * have no `execute`, so the SDK stops after the model's turn and our loop runs the tools. The tool set may
 * differ at every step.
 */
export class AiSdkAdapter implements ModelAdapter {
  readonly supportsDynamicTools = true;

  constructor(
    private readonly model: LanguageModel,
    private readonly settings: AiSdkAdapterSettings = {},
  ) {}

  async step(request: ModelStepRequest): Promise<ModelStepResult> {
    const tooDeep = new Set<string>();
    const result = await generateText({
      model: guardDeepArguments(this.model, tooDeep),
      system: request.system,
      messages: [...request.messages],
      tools: request.tools.length > 0 ? toSdkTools(request.tools) : undefined,
      abortSignal: request.signal,
      ...this.settings,
    });
    const toolCalls: ModelToolCall[] = [];
    for (const part of result.content) {
      if (part.type !== "tool-call") continue;
      const rejected = part.invalid === true && InvalidToolInputError.isInstance(part.error);
      toolCalls.push({
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        ...(tooDeep.has(part.toolCallId)
          ? { input: {}, inputError: `the arguments are nested more than ${MAX_INPUT_DEPTH} levels deep` }
          : readInput(part.input, rejected)),
      });
    }
    // The SDK adds its own error results for calls it could not parse; the loop writes every result itself.
    const responseMessages: ModelMessage[] = result.response.messages.filter((m) => m.role === "assistant");
    return {
      responseMessages,
      toolCalls,
      text: result.text,
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
    };
  }
}

/**
 * The SDK refuses both malformed JSON and JSON with `__proto__`/`constructor` keys (secure parsing) and then
 * hands over the raw text. Tell the two apart, so the model hears which it was: plain `JSON.parse` makes such
 * keys own properties (no pollution), and the loop rejects them by name.
 */
function readInput(input: unknown, rejected: boolean): { input: unknown; inputError?: string } {
  if (!rejected || typeof input !== "string") return { input };
  try {
    return { input: JSON.parse(input) as unknown };
  } catch {
    return { input, inputError: "the arguments are not valid JSON" };
  }
}

/** The AI SDK tool set for one step: descriptions and JSON schemas, no `execute`. */
export function toSdkTools(tools: readonly AnyTool[]): ToolSet {
  const set: ToolSet = {};
  for (const t of tools) {
    set[t.name] = { description: t.description, inputSchema: jsonSchema(t.inputSchema as JSONSchema7) };
  }
  return set;
}
