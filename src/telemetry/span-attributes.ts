import type { Attributes } from "@opentelemetry/api";
import type { TokenUsage } from "../events/token-usage.js";
import { providerKeyOf, type ProviderIdentity } from "../tools/provider-identity.js";

/** A model call's tokens as the GenAI conventions' `gen_ai.usage.*` attributes. */
export function usageAttributes(usage: TokenUsage): Attributes {
  return {
    "gen_ai.usage.input_tokens": usage.inputTokens,
    "gen_ai.usage.output_tokens": usage.outputTokens,
    "gen_ai.usage.cache_read.input_tokens": usage.cachedInputTokens,
    "gen_ai.usage.reasoning.output_tokens": usage.reasoningTokens,
    ...(usage.cacheWriteInputTokens === undefined
      ? {}
      : { "gen_ai.usage.cache_creation.input_tokens": usage.cacheWriteInputTokens }),
  };
}

/**
 * Providers as three parallel array attributes (span attributes hold no objects): class, id as text, and
 * the id's type, which tells `1` from `"1"`.
 */
export function providerAttributes(providers: readonly ProviderIdentity[]): Attributes {
  if (providers.length === 0) return {};
  return {
    "entity_tools.provider.class": providers.map((p) => p.providerClass),
    "entity_tools.provider.id": providers.map((p) => String(p.id)),
    "entity_tools.provider.id_type": providers.map((p) => p.idType),
  };
}

/** Each provider once, by its key. */
export function distinct(providers: readonly ProviderIdentity[]): ProviderIdentity[] {
  return [...new Map(providers.map((p) => [providerKeyOf(p), p])).values()];
}

/** A value (a tool call's input) as JSON, or as text when it has none. */
export function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
