// What a step made on the provider spec gets back, read as the SDK reads it (see `AiSdkAdapter`).
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
} from "@ai-sdk/provider";
import { generateText, wrapLanguageModel } from "ai";
import type { ModelStepRequest, ModelStepResult } from "../loop/ports/model-port.js";
import type { SdkInternals } from "./sdk-internals.js";
import { stepResult, toolCallOf, withFinishReason } from "./sdk-step-result.js";
import { readStepContent, type SdkToolCall } from "./step-content.js";
import { toSdkTools, type ProviderTools } from "./tool-definitions.js";

/** A provider call a step makes itself: the model, its options, and the SDK's retry around it. */
export interface DirectCall {
  readonly model: LanguageModelV3;
  readonly internals: SdkInternals;
  readonly offered: ProviderTools;
  /** The call's options, for one attempt (its prompt completed from the cache). */
  readonly options: () => LanguageModelV3CallOptions;
  readonly retry: <T>(call: () => PromiseLike<T>) => Promise<T>;
}

/** What a direct step's provider call returned (`doGenerate`'s result, or a stream gathered into one). */
type DirectResult = Pick<
  LanguageModelV3GenerateResult,
  "content" | "usage" | "finishReason" | "warnings" | "response"
>;

/**
 * A direct step's result, read as the SDK reads it; content only the SDK can record goes to the SDK. A
 * streamed step's tool calls were parsed as they arrived: `parsed` has them, by their content part.
 */
export async function readDirectResult(
  request: ModelStepRequest,
  direct: DirectCall,
  result: DirectResult,
  tooDeep: ReadonlySet<string>,
  parsed?: ReadonlyMap<object, SdkToolCall>,
): Promise<ModelStepResult> {
  const read = await readContent(request, direct, result, tooDeep, parsed);
  const reason: unknown = result.finishReason; // `{ unified, raw }` (spec V3 and V4)
  return withFinishReason(read, typeof reason === "string" ? reason : result.finishReason?.unified);
}

async function readContent(
  request: ModelStepRequest,
  direct: DirectCall,
  result: DirectResult,
  tooDeep: ReadonlySet<string>,
  parsed?: ReadonlyMap<object, SdkToolCall>,
): Promise<ModelStepResult> {
  const read = readStepContent(result.content, direct.offered.names, parsed);
  const warnings = result.warnings ?? []; // as the SDK reads them: a provider may leave them out
  // A step with warnings that only the SDK can log as it would (see `warningLog`) is read by the SDK.
  const log = warnings.length > 0 ? warningLog(direct.internals) : undefined;
  if (!read || (warnings.length > 0 && !log)) return replay(request, direct.model, result, tooDeep);
  log?.({ warnings, provider: direct.model.provider, model: direct.model.modelId });
  const modelId = result.response?.modelId; // the model the provider answered as, as the SDK reports it
  return {
    ...(modelId === undefined ? {} : { modelId }),
    responseMessages: read.responseMessages,
    toolCalls: read.toolCalls.map((c) => toolCallOf(c, tooDeep)),
    text: read.text,
    usage: {
      inputTokens: result.usage.inputTokens.total,
      outputTokens: result.usage.outputTokens.total,
      cachedInputTokens: result.usage.inputTokens.cacheRead,
      reasoningTokens: result.usage.outputTokens.reasoning,
      cacheWriteInputTokens: result.usage.inputTokens.cacheWrite,
    },
  };
}

/**
 * How a direct step's warnings are logged as `generateText` would log them: by the SDK's own logger where
 * `ai` exports it (ai 7). ai 6 does not, but its logger hands two settings of the `AI_SDK_LOG_WARNINGS`
 * global over whole: `false` logs nothing, and a function is called with the warnings, the provider and
 * the model id (`{ warnings, provider, model }`). Only its console output (with a notice it prints once
 * per process) needs the SDK itself: `undefined` then, and the step is read by the SDK, which logs them.
 */
function warningLog(internals: SdkInternals): SdkInternals["logWarnings"] {
  if (internals.logWarnings) return internals.logWarnings;
  const setting: unknown = (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS;
  if (setting === false) return () => {};
  if (typeof setting === "function") return (options) => void setting(options);
  return undefined;
}

/** Content only the SDK knows how to record (a file, a provider-executed tool): it reads the result. */
async function replay(
  request: ModelStepRequest,
  model: LanguageModelV3,
  result: DirectResult,
  tooDeep: ReadonlySet<string>,
): Promise<ModelStepResult> {
  const replayed = await generateText({
    model: wrapLanguageModel({
      model,
      middleware: { specificationVersion: "v3", wrapGenerate: async () => result },
    }),
    prompt: "(replayed step)",
    tools: request.tools.length > 0 ? toSdkTools(request.tools) : undefined,
    maxRetries: 0,
  });
  return stepResult(replayed.content, replayed.response, replayed.text, replayed.usage, tooDeep);
}
