import type { LanguageModelV3Content, LanguageModelV3GenerateResult } from "@ai-sdk/provider";

/** A tool call in a scripted model turn. `input` that is a string is sent as the raw argument text. */
export interface ScriptedToolCall {
  /** The tool the model calls, by name. */
  readonly toolName: string;
  /** The input it gives (a string is sent as raw argument text); default `{}`. */
  readonly input?: unknown;
  /** The id the model gives the call. Default `call_<n>`, unique in the process. */
  readonly toolCallId?: string;
}

/** One model turn: text, tool calls, or both; `usage` is the tokens it reports (0 when absent). */
export interface ScriptedTurn {
  /** The model's text; default none. */
  readonly text?: string;
  /** The tools the model calls, in order; default none. */
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** `cachedInputTokens` are part of `inputTokens`, `reasoningTokens` part of `outputTokens`, as providers report them. */
  readonly usage?: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly cachedInputTokens?: number;
    readonly reasoningTokens?: number;
  };
}

let nextCallId = 1;

/** The `doGenerate` result of a language model that answers with `turn`. */
export function generateResult(turn: ScriptedTurn): LanguageModelV3GenerateResult {
  const content: LanguageModelV3Content[] = [];
  if (turn.text !== undefined) content.push({ type: "text", text: turn.text });
  for (const call of turn.toolCalls ?? []) {
    content.push({
      type: "tool-call",
      toolCallId: call.toolCallId ?? `call_${nextCallId++}`,
      toolName: call.toolName,
      input: typeof call.input === "string" ? call.input : JSON.stringify(call.input ?? {}),
    });
  }
  const calls = turn.toolCalls?.length ?? 0;
  const { inputTokens: input, outputTokens: output } = turn.usage ?? { inputTokens: 0, outputTokens: 0 };
  const cached = turn.usage?.cachedInputTokens ?? 0;
  const reasoning = turn.usage?.reasoningTokens ?? 0;
  return {
    content,
    finishReason: { unified: calls > 0 ? "tool-calls" : "stop", raw: undefined },
    usage: {
      inputTokens: { total: input, noCache: input - cached, cacheRead: cached, cacheWrite: 0 },
      outputTokens: { total: output, text: output - reasoning, reasoning },
    },
    warnings: [],
  };
}
