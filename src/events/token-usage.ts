/**
 * Tokens a model call (or a whole run) consumed, as the provider reported them; a count the provider did not
 * report is 0. `cachedInputTokens` are part of `inputTokens` (read from the provider's prompt cache, billed at
 * the cached price); `reasoningTokens` are part of `outputTokens`.
 */
export interface TokenUsage {
  /** Input (prompt) tokens, cached ones included. */
  readonly inputTokens: number;
  /** Output tokens, reasoning ones included. */
  readonly outputTokens: number;
  /** The part of `inputTokens` read from the provider's prompt cache. */
  readonly cachedInputTokens: number;
  /** The part of `outputTokens` the model spent reasoning. */
  readonly reasoningTokens: number;
}

/** No tokens. */
export function emptyUsage(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
}

/** `a + b`; a count missing from `b` (or from an older snapshot's `a`) counts as 0. */
export function addUsage(a: Partial<TokenUsage>, b: Partial<TokenUsage> | undefined): TokenUsage {
  return {
    inputTokens: (a.inputTokens ?? 0) + (b?.inputTokens ?? 0),
    outputTokens: (a.outputTokens ?? 0) + (b?.outputTokens ?? 0),
    cachedInputTokens: (a.cachedInputTokens ?? 0) + (b?.cachedInputTokens ?? 0),
    reasoningTokens: (a.reasoningTokens ?? 0) + (b?.reasoningTokens ?? 0),
  };
}
