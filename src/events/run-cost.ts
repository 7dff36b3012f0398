import type { TokenUsage } from "./token-usage.js";

/** One model call's tokens and cost. */
export interface StepCost {
  readonly iteration: number;
  readonly modelId?: string;
  readonly usage: TokenUsage;
  /** USD. */
  readonly cost: number;
}

/**
 * What one discovered provider (class, id) added to the run: its tools' definitions in every request that
 * offered them, and its calls' results in every request after them, priced as uncached input of the
 * request's model. Part of the run's total, not on top of it.
 */
export interface ProviderCost {
  /** The provider's class name. */
  readonly providerClass: string;
  readonly instanceId: string;
  /** Estimated definition tokens, summed over every request that offered its tools. */
  readonly definitionTokens: number;
  /** Calls of its tools (failed ones included). */
  readonly calls: number;
  /** Estimated tokens of its calls' results, summed over every request that carried them. */
  readonly resultTokens: number;
  /** USD. */
  readonly cost: number;
}

/** What a run cost, with pricing (`withPricing`). */
export interface RunCost {
  /** USD, every model call of the run. */
  readonly total: number;
  readonly perStep: readonly StepCost[];
  /** Discovered providers, in the order they were first discovered. */
  readonly perProvider: readonly ProviderCost[];
}
