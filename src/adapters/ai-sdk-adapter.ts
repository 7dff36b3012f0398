import {
  generateText,
  streamText,
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
import type {
  ModelAdapter,
  ModelStepRequest,
  ModelStepResult,
  ModelStreamPart,
  ModelToolCall,
} from "../loop/model-port.js";

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
    const result = await generateText(this.call(request, tooDeep));
    return stepResult(result.content, result.response.messages, result.text, result.usage, tooDeep);
  }

  /** The same step through `streamText`: text deltas and tool calls are reported as they arrive. */
  async stream(request: ModelStepRequest, onPart: (part: ModelStreamPart) => void): Promise<ModelStepResult> {
    const tooDeep = new Set<string>();
    const result = streamText({ ...this.call(request, tooDeep), onError: () => {} });
    for await (const part of result.fullStream) {
      if (part.type === "error") throw part.error;
      if (part.type === "text-delta") onPart({ type: "text-delta", text: part.text });
      if (part.type === "tool-call") onPart({ type: "tool-call", call: toolCallOf(part, tooDeep) });
    }
    const [content, response, text, usage] = await Promise.all([
      result.content,
      result.response,
      result.text,
      result.usage,
    ]);
    return stepResult(content, response.messages, text, usage, tooDeep);
  }

  /** The options of one SDK call: tools without `execute`, so the SDK stops after the model's turn. */
  private call(request: ModelStepRequest, tooDeep: Set<string>) {
    return {
      model: guardDeepArguments(this.model, tooDeep),
      system: request.system,
      messages: [...request.messages],
      tools: request.tools.length > 0 ? toSdkTools(request.tools) : undefined,
      abortSignal: request.signal,
      ...this.settings,
    };
  }
}

type SdkToolCall = {
  toolCallId: string;
  toolName: string;
  input: unknown;
  invalid?: boolean;
  error?: unknown;
};

/** A step's result from the SDK's content, messages, text and usage (generate or stream alike). */
function stepResult(
  content: readonly { type: string }[],
  messages: readonly ModelMessage[],
  text: string,
  usage: { inputTokens?: number; outputTokens?: number },
  tooDeep: ReadonlySet<string>,
): ModelStepResult {
  const toolCalls = content
    .filter((p) => p.type === "tool-call")
    .map((p) => toolCallOf(p as unknown as SdkToolCall, tooDeep));
  // The SDK adds its own error results for calls it could not parse; the loop writes every result itself.
  const responseMessages = messages.filter((m) => m.role === "assistant");
  return {
    responseMessages,
    toolCalls,
    text,
    usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
  };
}

function toolCallOf(part: SdkToolCall, tooDeep: ReadonlySet<string>): ModelToolCall {
  const rejected = part.invalid === true && InvalidToolInputError.isInstance(part.error);
  return {
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    ...(tooDeep.has(part.toolCallId)
      ? { input: {}, inputError: `the arguments are nested more than ${MAX_INPUT_DEPTH} levels deep` }
      : readInput(part.input, rejected)),
  };
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
  for (const t of tools) set[t.name] = sdkToolOf(t);
  return set;
}

// Each tool's SDK definition is built once, not at every step of every run that offers it.
const sdkTools = new WeakMap<AnyTool, ToolSet[string]>();

function sdkToolOf(tool: AnyTool): ToolSet[string] {
  let definition = sdkTools.get(tool);
  if (!definition) {
    definition = { description: tool.description, inputSchema: jsonSchema(tool.inputSchema as JSONSchema7) };
    sdkTools.set(tool, definition);
  }
  return definition;
}
