import { InvalidToolInputError, type ModelMessage } from "ai";
import { MAX_INPUT_DEPTH } from "../loop/execution/input-shape.js";
import type { ModelStepResult, ModelToolCall } from "../loop/ports/model-port.js";
import type { SdkToolCall } from "./step-content.js";

const NOT_JSON = "the arguments are not valid JSON";

/** The SDK's usage of a call, as ai 6 and ai 7 report it (the flat counts are ai 6's older names). */
interface SdkUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly inputTokenDetails?: { readonly cacheReadTokens?: number; readonly cacheWriteTokens?: number };
  readonly outputTokenDetails?: { readonly reasoningTokens?: number };
  readonly cachedInputTokens?: number;
  readonly reasoningTokens?: number;
}

/**
 * A step's result from the SDK's content, response, text and usage (generate or stream alike). Its model
 * id is the one the SDK reports for the response: the provider's answer's, else the model's.
 */
export function stepResult(
  content: readonly { type: string }[],
  { messages, modelId }: { readonly messages: readonly ModelMessage[]; readonly modelId?: string },
  text: string,
  usage: SdkUsage,
  tooDeep: ReadonlySet<string>,
): ModelStepResult {
  const toolCalls = content
    .filter((p) => p.type === "tool-call")
    .map((p) => toolCallOf(p as unknown as SdkToolCall, tooDeep));
  // The SDK adds its own error results for calls it could not parse; the loop writes every result itself.
  const responseMessages = messages.filter((m) => m.role === "assistant");
  return {
    ...(modelId === undefined ? {} : { modelId }),
    responseMessages,
    toolCalls,
    text,
    usage: {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens,
      reasoningTokens: usage.outputTokenDetails?.reasoningTokens ?? usage.reasoningTokens,
      cacheWriteInputTokens: usage.inputTokenDetails?.cacheWriteTokens,
    },
  };
}

/**
 * A step's result as the adapter reports it: the model the step asked for as `modelId`, the id the
 * response named (the result's own) as `responseModelId` when it is another, and the step's warnings.
 * Pricing reads the model asked for (docs/tracing.md).
 */
export function stampedResult(
  result: ModelStepResult,
  asked: string,
  warnings: readonly string[],
): ModelStepResult {
  const answered = result.modelId;
  // `modelId` before the spread: see `callOptions` (a key added after a spread copy is slow on Node 20).
  const stamped: ModelStepResult =
    answered === undefined || answered === asked
      ? { modelId: asked, ...result }
      : { ...result, modelId: asked, responseModelId: answered };
  // The step's own (a cut response) after the adapter's; a copy only when both have some (most steps: none).
  const own = result.warnings ?? [];
  if (warnings.length === 0) return own.length > 0 ? { ...stamped, warnings: [...own] } : stamped;
  return { ...stamped, warnings: own.length > 0 ? [...warnings, ...own] : warnings };
}

/** A tool call as the loop reads it: arguments too deep or refused by the SDK become an input error. */
export function toolCallOf(part: SdkToolCall, tooDeep: ReadonlySet<string>): ModelToolCall {
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
    return { input, inputError: NOT_JSON };
  }
}

/**
 * What a step's finish reason (the SDK's unified one) adds to its result: a response the model's output
 * token limit cut off (`length`) or a content filter stopped (`content-filter`) is used as far as it goes,
 * and the caller hears of it by a warning (a final text cut short would otherwise pass for a whole answer);
 * a call cut inside its arguments tells the model why they are not JSON, so it can send a shorter call
 * instead of the same one again.
 */
export function withFinishReason(result: ModelStepResult, reason: string | undefined): ModelStepResult {
  const why = STOPPED.get(reason);
  if (why === undefined) return result;
  const cut = (call: ModelToolCall): ModelToolCall =>
    call.inputError === NOT_JSON
      ? { ...call, inputError: `${NOT_JSON}: ${why} before they were complete` }
      : call;
  const warning = `The model's response was cut short: ${why}. What it sent before is used as it is.`;
  return {
    ...result,
    toolCalls: result.toolCalls.map(cut),
    warnings: [...(result.warnings ?? []), warning],
  };
}

/** Why a response with this finish reason stopped where it did. */
const STOPPED: ReadonlyMap<string | undefined, string> = new Map([
  ["length", 'the response reached the model\'s output token limit (finish reason "length")'],
  ["content-filter", 'the provider\'s content filter stopped the response (finish reason "content-filter")'],
]);
