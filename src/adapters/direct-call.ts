// A step made on the provider spec: its prompt converted by the SDK's own converter (the step's new
// messages; the cache completes the rest), its options the SDK's, its retries the SDK's (see `AiSdkAdapter`).
import type { LanguageModelV3, LanguageModelV3Message } from "@ai-sdk/provider";
import type { LanguageModel } from "ai";
import type { ModelStepRequest } from "../loop/ports/model-port.js";
import {
  callOptions,
  systemMessages,
  type PromptSlice,
  type StepCallOptions,
} from "./converted-prompt-cache.js";
import type { DeliveredStep } from "./deferred-delivery/deferred-delivery.js";
import type { DirectCall } from "./direct-step-result.js";
import type { SdkInternals } from "./sdk-internals.js";
import { sdkMessages } from "./sdk-tool-output.js";

/**
 * The provider call of a step, with `learned` (the options the SDK built for the run), or why it cannot be
 * made (the SDK's converter failed: the caller goes through the SDK from now on).
 *
 * @throws what the conversion threw when the step's signal aborted it
 */
export async function directCallOf(
  internals: SdkInternals,
  request: ModelStepRequest,
  slice: PromptSlice,
  learned: StepCallOptions,
  delivered: DeliveredStep,
  stepped: LanguageModel,
  settings: { readonly maxRetries?: number },
): Promise<DirectCall | string> {
  const model = stepped as LanguageModelV3; // the user's own middleware is inside it
  let converted: LanguageModelV3Message[];
  try {
    converted = await internals.convert(
      sdkMessages(slice.messages, internals.mapToolOutput),
      model,
      request.signal,
    );
  } catch (error) {
    if (request.signal?.aborted) throw error;
    return `convertToLanguageModelPrompt failed (${String(error)})`;
  }
  const { offered } = delivered;
  const prompt = [...systemMessages(request.system), ...converted];
  // The provider gets its own array, as from the SDK (a pointer copy; the definitions are shared).
  const tools = offered.definitions.length > 0 ? [...offered.definitions] : undefined;
  return {
    model,
    internals,
    offered,
    // The model is called as it is, not through the wrappers a step through the SDK gets (two
    // `wrapLanguageModel` layers a step, issue 46): the prompt is completed here, once per attempt as
    // their middleware did, and the deep-arguments guard is applied to the result by the caller.
    // In the key order of a step through the SDK (see `callOptions`: the learned options never hold
    // the step's own keys, so the order changes nothing else). The SDK's tool choice, a new object per
    // call (a middleware may edit it in place); `callOptions` leaves it out of a step without tools.
    options: () =>
      callOptions(slice.complete(prompt, learned), tools, { type: "auto" }, request.signal, learned),
    retry: (call) => internals.retry(settings.maxRetries, request.signal, call),
  };
}
