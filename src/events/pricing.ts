import type { TokenUsage } from "./token-usage.js";

/** Prices of one model in USD per million tokens. `cachedInput` and `cacheWriteInput` default to `input`. */
export interface PriceTable {
  /** USD per million input tokens (uncached). */
  readonly input: number;
  /** USD per million input tokens read from the prompt cache; default `input`. */
  readonly cachedInput?: number | undefined;
  /**
   * USD per million input tokens written to the prompt cache (Anthropic's `cache_creation_input_tokens`,
   * billed above `input`); default `input`.
   */
  readonly cacheWriteInput?: number | undefined;
  /** USD per million output tokens, reasoning tokens included. */
  readonly output: number;
}

/** One price table for every model, or the price table of a model by its id (undefined when unnamed). */
export type Pricing = PriceTable | ((modelId: string | undefined) => PriceTable);

/** The prices that apply to a call of `modelId`. */
export function pricesFor(pricing: Pricing, modelId: string | undefined): PriceTable {
  return typeof pricing === "function" ? pricing(modelId) : pricing;
}

/**
 * What `usage` costs in USD: uncached input, input read from and written to the prompt cache, and output at
 * their prices (reasoning tokens are output tokens and are billed as such).
 */
export function costOf(usage: TokenUsage, prices: PriceTable): number {
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const written = Math.min(usage.cacheWriteInputTokens ?? 0, usage.inputTokens - cached);
  const uncached = usage.inputTokens - cached - written;
  return (
    (uncached * prices.input +
      cached * (prices.cachedInput ?? prices.input) +
      written * (prices.cacheWriteInput ?? prices.input) +
      usage.outputTokens * prices.output) /
    1_000_000
  );
}

/**
 * What one model response cost in USD at its model's prices, or undefined when that is unknown: its provider
 * reported no input or no output tokens (`ModelRespondedEvent.usageUnknown`), so its `usage` reads 0 where it
 * spent tokens; no amount rather than that of 0 tokens, which would read as free. The one place of that rule:
 * the run's `cost` and the run log both price a response by it.
 */
export function responseCost(
  pricing: Pricing,
  response: {
    readonly usage: TokenUsage;
    readonly modelId?: string | undefined;
    readonly usageUnknown?: true | undefined;
  },
): number | undefined {
  return response.usageUnknown ? undefined : costOf(response.usage, pricesFor(pricing, response.modelId));
}
