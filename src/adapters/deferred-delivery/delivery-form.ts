import type { LanguageModelV3Message, LanguageModelV3ProviderTool } from "@ai-sdk/provider";
import type { ModelMessage, ToolSet } from "ai";
import type { AnyTool } from "../../tools/tool.js";

/** What one step changes among a run's deferred tools. */
export interface DeliveryChange {
  /** Tools the model has not been given yet (or was given and lost to the budget). */
  readonly added: readonly AnyTool[];
  /** Names of delivered tools the run no longer offers (the budget evicted them). */
  readonly removed: readonly string[];
  /** The change's number in its run (1, 2, …): ids in its messages are made of it, so they never change. */
  readonly sequence: number;
}

/**
 * A provider's own form for tools that arrive mid-conversation without touching the front of the request
 * (the tool list, which the provider's prompt cache keys first): the tools every request declares up front,
 * and the messages that deliver a change, appended once after the results of the call that caused it and
 * kept in every later request as they were.
 */
export interface DeliveryForm {
  /** How the form is called in docs and events. */
  readonly name: string;
  /** Provider tools every request of the run declares, discoveries or not (as the spec receives them). */
  readonly providerTools: readonly LanguageModelV3ProviderTool[];
  /** The same tools as an AI SDK tool set, for steps that go through `generateText`. */
  readonly sdkTools: ToolSet;
  /** Whether its messages are system messages (which `generateText` must be told to accept). */
  readonly systemMessages: boolean;
  /** The messages that deliver `change`. */
  deliver(change: DeliveryChange): ModelMessage[];
  /**
   * The inverse of `deliver`, on the prompt the provider receives: the tool names one of its messages adds
   * and removes, or `undefined` for a message that is not one of this form's deliveries. What a recorded
   * or replayed step reads to know every tool the model was offered, deferred ones included.
   */
  read(message: LanguageModelV3Message): DeliveredNames | undefined;
}

/** The tool names one delivery message adds and removes. */
export interface DeliveredNames {
  readonly added: readonly string[];
  readonly removed: readonly string[];
}
