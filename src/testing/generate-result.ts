import type {
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { ScriptError } from "./script-error.js";

/** A tool call in a scripted model turn. `input` that is a string is sent as the raw argument text. */
export interface ScriptedToolCall {
  /** The tool the model calls, by name. */
  readonly toolName: string;
  /** The input it gives (a string is sent as raw argument text); default `{}`. */
  readonly input?: unknown;
  /** The id the model gives the call. Default `call_<n>`, unique in the process. */
  readonly toolCallId?: string | undefined;
}

/**
 * One model turn: text, tool calls, or both; `usage` is the tokens it reports (0 when absent; a count given as
 * `undefined` was not reported).
 */
export interface ScriptedTurn {
  /** The model's text; default none. */
  readonly text?: string | undefined;
  /** The tools the model calls, in order; default none. */
  readonly toolCalls?: readonly ScriptedToolCall[] | undefined;
  /**
   * `cachedInputTokens` (read from the prompt cache) and `cacheWriteInputTokens` (written to it, priced at
   * `cacheWriteInput`) are part of `inputTokens`, `reasoningTokens` part of `outputTokens`, as providers
   * report them. `inputTokens` or `outputTokens` given as `undefined` is a count the provider did not report,
   * as the AI SDK's provider spec says it (`usage.inputTokens.total: undefined`: a server or proxy that sends
   * no usage): the call's usage is then unknown (`ModelRespondedEvent.usageUnknown`), and with pricing so is
   * its cost. Leaving `usage` out reports 0 tokens.
   */
  readonly usage?:
    | {
        readonly inputTokens: number | undefined;
        readonly outputTokens: number | undefined;
        readonly cachedInputTokens?: number | undefined;
        readonly cacheWriteInputTokens?: number | undefined;
        readonly reasoningTokens?: number | undefined;
      }
    | undefined;
}

let nextCallId = 1;

/**
 * The `doGenerate` result of a language model that answers with `turn`.
 *
 * @throws ScriptError when a call's input cannot be sent as JSON (a function, a bigint, a cycle).
 */
export function generateResult(turn: ScriptedTurn): LanguageModelV3GenerateResult {
  const content: LanguageModelV3Content[] = [];
  if (turn.text !== undefined) content.push({ type: "text", text: turn.text });
  for (const call of turn.toolCalls ?? []) {
    const where = `The call of ${JSON.stringify(call.toolName)} has an input that`;
    content.push({
      type: "tool-call",
      toolCallId: call.toolCallId ?? `call_${nextCallId++}`,
      toolName: call.toolName,
      input: argumentText(call.input ?? {}, where),
    });
  }
  const calls = turn.toolCalls?.length ?? 0;
  return {
    content,
    finishReason: { unified: calls > 0 ? "tool-calls" : "stop", raw: undefined },
    usage: providerUsage(turn.usage ?? { inputTokens: 0, outputTokens: 0 }),
    warnings: [],
  };
}

/**
 * A scripted turn's usage as a provider reports it. A part of a count that was reported defaults to 0; of
 * one that was not, to not reported (`undefined`), unless the script gives it.
 */
function providerUsage(usage: NonNullable<ScriptedTurn["usage"]>): LanguageModelV3Usage {
  const { inputTokens: input, outputTokens: output } = usage;
  const cached = usage.cachedInputTokens ?? (input === undefined ? undefined : 0);
  const written = usage.cacheWriteInputTokens ?? (input === undefined ? undefined : 0);
  const reasoning = usage.reasoningTokens ?? (output === undefined ? undefined : 0);
  return {
    inputTokens: {
      total: input,
      noCache: input === undefined ? undefined : input - (cached ?? 0) - (written ?? 0),
      cacheRead: cached,
      cacheWrite: written,
    },
    outputTokens: {
      total: output,
      text: output === undefined ? undefined : output - (reasoning ?? 0),
      reasoning,
    },
  };
}

const WHAT_TO_GIVE = "Give the tool's arguments (an object; a string is sent as raw argument text).";

/**
 * A scripted call's argument text: a string as it is (raw text, to test bad JSON), anything else as JSON.
 * What JSON cannot hold is refused with what to pass, `what` saying where it was given (`callTool("x",
 * input): the input`): `JSON.stringify` gives no text for a function (the run failed later reading it).
 */
export function argumentText(input: unknown, what: string): string {
  if (typeof input === "string") return input;
  if (typeof input === "function")
    throw new ScriptError(
      `${what} is a function, which a scripted call cannot send. ${WHAT_TO_GIVE} To compute them during ` +
        "the run (from what an earlier call returned), script the turn with " +
        "respondWith(describe, (request) => ({ toolCalls: [{ toolName, input }] })).",
    );
  let text: string | undefined;
  try {
    // A function or symbol inside the input: JSON would leave it out without a word (`{ f: () => 1 }` was
    // sent as `{}`), and the script would call with arguments its author did not give. (A member that is
    // `undefined` is left out, as a model leaves it out.)
    text = JSON.stringify(input, (key: string, value: unknown) => {
      if (key !== "" && (typeof value === "function" || typeof value === "symbol"))
        throw new ScriptError(
          `${what} holds a ${typeof value} at ${JSON.stringify(key)}, which JSON leaves out. ${WHAT_TO_GIVE}`,
        );
      return value;
    });
  } catch (error) {
    if (error instanceof ScriptError) throw error;
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new ScriptError(`${what} cannot be sent as JSON (${why}). ${WHAT_TO_GIVE}`);
  }
  if (text === undefined)
    throw new ScriptError(`${what} has no JSON form (a ${typeof input}). ${WHAT_TO_GIVE}`);
  return text;
}
