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
  /**
   * The part of `inputTokens` written to the provider's prompt cache (Anthropic's
   * `cache_creation_input_tokens`), billed at the cache-write price; present only when a provider reported some.
   */
  readonly cacheWriteInputTokens?: number;
}

/**
 * Tokens as a backend reports them (a custom `ModelAdapter`'s `ModelStepResult.usage`, a `ConversationTurn`'s):
 * a count left out, or given as `undefined` (a provider's field it did not send), was not reported and counts
 * as 0.
 */
export type ReportedTokenUsage = { readonly [K in keyof TokenUsage]?: TokenUsage[K] | undefined };

/** No tokens. */
export function emptyUsage(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
}

/** `a + b`; a count missing from `b` (or from an older snapshot's `a`) counts as 0. */
export function addUsage(a: ReportedTokenUsage, b: ReportedTokenUsage | undefined): TokenUsage {
  const written = (a.cacheWriteInputTokens ?? 0) + (b?.cacheWriteInputTokens ?? 0);
  return {
    inputTokens: (a.inputTokens ?? 0) + (b?.inputTokens ?? 0),
    outputTokens: (a.outputTokens ?? 0) + (b?.outputTokens ?? 0),
    cachedInputTokens: (a.cachedInputTokens ?? 0) + (b?.cachedInputTokens ?? 0),
    reasoningTokens: (a.reasoningTokens ?? 0) + (b?.reasoningTokens ?? 0),
    // Only where a provider wrote to its prompt cache, so the usage of others reads as before.
    ...(written > 0 ? { cacheWriteInputTokens: written } : {}),
  };
}

/** A count a provider reported that is not a count of tokens (W04), left out of the usage. */
export interface UsageProblem {
  /** The count. */
  readonly key: keyof TokenUsage;
  /** What the provider sent, as text (`-5`, `NaN`, `"100"`). */
  readonly reported: string;
}

/**
 * `usage` with only counts of tokens in it: a count that is not a whole number from 0 to
 * `Number.MAX_SAFE_INTEGER` (a provider's `-5`, `1.5`, `1e300`, `"100"`) is left out, so it counts as not
 * reported (0) and a run's totals and cost never go down or become nonsense. Each one left out is in
 * `problems`, for a `ModelWarning`.
 */
export function countedUsage(usage: ReportedTokenUsage | undefined): {
  readonly usage: ReportedTokenUsage | undefined;
  readonly problems: readonly UsageProblem[];
} {
  if (usage === undefined) return { usage, problems: [] };
  const problems: UsageProblem[] = [];
  const counted: Partial<Record<keyof TokenUsage, number>> = {};
  for (const key of USAGE_KEYS) {
    const value: unknown = usage[key];
    if (value === undefined) continue;
    if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) counted[key] = value;
    else problems.push({ key, reported: typeof value === "string" ? JSON.stringify(value) : String(value) });
  }
  return { usage: problems.length === 0 ? usage : counted, problems };
}

/**
 * W04's warning for a count left out. A call whose input or output count is left out has an unknown usage,
 * whose warning names the count instead (`RunEvents.usageUnknown`): this one is for the others.
 */
export function usageProblemWarning({ key, reported }: UsageProblem): string {
  return (
    `The provider reported ${key} as ${reported}, which is not a count of tokens: this response's usage` +
    // Without input or output tokens a call's cost is unknown, not the cost of 0 (`usageUnknown`).
    (isPricedCount(key)
      ? " and the run's totals count it as 0."
      : ", the run's totals and its cost count it as 0.")
  );
}

/** Whether a call's cost is reckoned from this count (input or output tokens; the others are parts of them). */
export function isPricedCount(key: keyof TokenUsage): boolean {
  return key === "inputTokens" || key === "outputTokens";
}

/**
 * Whether `usage` (as {@link countedUsage} left it) lacks a count a call's cost needs: its input or its
 * output tokens (a provider or proxy that sent no usage). The other counts are parts of these two, and a
 * provider that leaves them out had none to report.
 */
export function isUsageUnknown(usage: ReportedTokenUsage | undefined): boolean {
  return usage?.inputTokens === undefined || usage.outputTokens === undefined;
}

const USAGE_KEYS = [
  "inputTokens",
  "outputTokens",
  "cachedInputTokens",
  "reasoningTokens",
  "cacheWriteInputTokens",
] as const;
