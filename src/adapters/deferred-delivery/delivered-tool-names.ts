import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { anthropicToolChanges } from "./anthropic-tool-changes.js";
import type { DeliveryForm } from "./delivery-form.js";
import { openAiToolSearch } from "./openai-tool-search.js";

const FORMS: readonly DeliveryForm[] = [anthropicToolChanges, openAiToolSearch];

/**
 * The tools that deferred deliveries in `prompt` (a provider call's prompt) leave the model with, in the
 * order they were delivered: what a step offers besides its tool list. Empty for a run without deferred
 * delivery.
 */
export function deliveredToolNames(prompt: LanguageModelV3Prompt): string[] {
  const names = new Set<string>();
  for (const message of prompt) {
    for (const form of FORMS) {
      const delivered = form.read(message);
      if (!delivered) continue;
      for (const name of delivered.removed) names.delete(name);
      for (const name of delivered.added) names.add(name);
    }
  }
  return [...names];
}
