import type { LanguageModelV3Message } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";

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
  /** The SDK's logging of a call's warnings; absent where the installed `ai` does not export it (ai 6). */
  readonly logWarnings?: (options: { warnings: unknown[]; provider: string; model: string }) => void;
}

/** The parts of `ai/internal` used here, as both ai 6 and ai 7 export them. */
interface InternalModule {
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
}

let loaded: Promise<SdkInternals | undefined> | undefined;

/**
 * The SDK's internals, or undefined when the installed `ai` no longer exports them under these names (they
 * are not semver-stable): the adapter then calls `generateText` at every step, as correct and slower. A
 * test on each lane fails when that happens, so an `ai` upgrade that removes them is noticed.
 */
export function sdkInternals(): Promise<SdkInternals | undefined> {
  loaded ??= import("ai/internal").then(
    (module) => fromModule(module as unknown as Partial<InternalModule>),
    () => undefined,
  );
  return loaded;
}

function fromModule(module: Partial<InternalModule>): SdkInternals | undefined {
  const { convertToLanguageModelPrompt: convert, prepareRetries, logWarnings } = module;
  if (typeof convert !== "function" || typeof prepareRetries !== "function") return undefined;
  return {
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
  };
}
