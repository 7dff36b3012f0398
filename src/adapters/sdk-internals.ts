import type { LanguageModelV3Message } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import { checkedMapping, type MapToolResultOutput } from "./sdk-tool-output.js";

/**
 * The three pieces of the AI SDK a step driven on the provider spec needs, taken from the SDK itself so
 * they behave as in `generateText`: message conversion, retries, and warning logs.
 */
export interface SdkInternals {
  /** The SDK's conversion of messages into the provider's prompt (downloads included). */
  convert(
    messages: ModelMessage[],
    model: { readonly provider: string; readonly supportedUrls: unknown },
    signal: AbortSignal | undefined,
  ): Promise<LanguageModelV3Message[]>;
  /** The SDK's retry: 429/5xx and other retryable `APICallError`s with backoff, then `RetryError`. */
  retry<T>(
    maxRetries: number | undefined,
    signal: AbortSignal | undefined,
    call: () => PromiseLike<T>,
  ): Promise<T>;
  /**
   * ai 7's mapping of a tool output's deprecated content items to its `file` items (see
   * `sdk-tool-output.ts`); absent where the installed `ai` has none (ai 6) or it failed its check.
   */
  readonly mapToolOutput?: MapToolResultOutput;
  /** The SDK's logging of a call's warnings; absent where the installed `ai` does not export it (ai 6). */
  readonly logWarnings?: (options: { warnings: unknown[]; provider: string; model: string }) => void;
}

/** The internals when they behave as expected, or why they are not used. */
export type InternalsCheck =
  | { readonly internals: SdkInternals; readonly problem?: undefined }
  | { readonly internals?: undefined; readonly problem: string };

/** The parts of `ai/internal` used here, as both ai 6 and ai 7 export them. */
export interface InternalModule {
  convertToLanguageModelPrompt(options: {
    prompt: { messages: ModelMessage[] };
    supportedUrls: unknown;
    download: undefined;
    abortSignal?: AbortSignal;
    provider?: string;
  }): Promise<LanguageModelV3Message[]>;
  prepareRetries(options: { maxRetries: number | undefined; abortSignal: AbortSignal | undefined }): {
    retry: <T>(call: () => PromiseLike<T>) => Promise<T>;
  };
  logWarnings?: SdkInternals["logWarnings"];
  mapToolResultOutput?: unknown;
}

let loaded: Promise<InternalsCheck> | undefined;

/**
 * The SDK's internals, checked once per process by what they do, not only by their names: `ai/internal`
 * promises nothing, and a same-name change of shape (the converter's options reshaped, `prepareRetries`
 * returning a function) would otherwise fail every run at its second step. When the check fails the
 * adapter calls `generateText` at every step, as correct and slower, and says so once with a
 * `ModelWarning` event. A test on each lane fails when that happens, so an `ai` upgrade is noticed.
 */
export function sdkInternals(): Promise<InternalsCheck> {
  loaded ??= import("ai/internal").then(
    (module) => checkInternals(module as unknown as Partial<InternalModule>),
    (error: unknown) => ({ problem: `ai/internal could not be loaded (${String(error)})` }),
  );
  return loaded;
}

/** `module`'s internals if they convert a known one-message prompt and retry a call as expected. */
export async function checkInternals(module: Partial<InternalModule>): Promise<InternalsCheck> {
  const { convertToLanguageModelPrompt: convert, prepareRetries, logWarnings } = module;
  const mapToolOutput = checkedMapping(module.mapToolResultOutput);
  if (typeof convert !== "function" || typeof prepareRetries !== "function")
    return { problem: "ai/internal no longer exports convertToLanguageModelPrompt and prepareRetries" };
  const internals: SdkInternals = {
    convert: async (messages, model, signal) =>
      convert({
        prompt: { messages },
        supportedUrls: await model.supportedUrls,
        download: undefined,
        abortSignal: signal,
        // ai 7 names the provider family (`openai` of `openai.chat`); ai 6 takes no provider.
        provider: model.provider.split(".")[0],
      }),
    retry: (maxRetries, signal, call) => prepareRetries({ maxRetries, abortSignal: signal }).retry(call),
    ...(typeof logWarnings === "function" ? { logWarnings } : {}),
    ...(mapToolOutput ? { mapToolOutput } : {}),
  };
  try {
    const prompt = await internals.convert([{ role: "user", content: "ping" }], PROBE_MODEL, undefined);
    if (!isPingPrompt(prompt)) return { problem: `convertToLanguageModelPrompt returned ${shapeOf(prompt)}` };
  } catch (error) {
    return { problem: `convertToLanguageModelPrompt failed on a one-message prompt (${String(error)})` };
  }
  try {
    const answer = await internals.retry(0, undefined, () => Promise.resolve(PROBE_ANSWER));
    if (answer !== PROBE_ANSWER) return { problem: `prepareRetries(...).retry returned ${shapeOf(answer)}` };
  } catch (error) {
    return { problem: `prepareRetries no longer returns { retry } (${String(error)})` };
  }
  return { internals };
}

const PROBE_MODEL = { provider: "entity-tools.probe", supportedUrls: {} };
const PROBE_ANSWER = 42;

/** The provider prompt the SDK makes of one user message "ping". */
function isPingPrompt(prompt: unknown): boolean {
  if (!Array.isArray(prompt) || prompt.length !== 1) return false;
  const message = prompt[0] as { role?: unknown; content?: unknown };
  if (message.role !== "user" || !Array.isArray(message.content) || message.content.length !== 1)
    return false;
  const part = message.content[0] as { type?: unknown; text?: unknown };
  return part.type === "text" && part.text === "ping";
}

function shapeOf(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 200) ?? String(value);
  } catch {
    return typeof value;
  }
}
