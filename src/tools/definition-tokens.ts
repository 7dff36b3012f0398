import type { AnyTool } from "./tool.js";

/** Characters per token of the estimate: the usual rule of thumb for English text and JSON on BPE tokenizers. */
const CHARS_PER_TOKEN = 4;

const estimates = new WeakMap<AnyTool, number>();

/**
 * An estimate of the tokens `tool`'s definition (name, description, input schema as JSON) adds to every
 * request that offers it: its characters / 4, rounded up. An estimate on purpose: the exact count depends
 * on the provider's tokenizer and on how it wraps tool definitions, and a real tokenizer is a large
 * runtime dependency; on the test fixtures' provider tools it is 22–26% above the `o200k_base` count
 * (it errs high, which keeps a token budget on the safe side). It is what cost attribution and `maxInjectedTokens` count, the same number everywhere.
 */
export function estimateDefinitionTokens(tool: AnyTool): number {
  let tokens = estimates.get(tool);
  if (tokens === undefined) {
    const text = tool.name + tool.description + JSON.stringify(tool.inputSchema);
    tokens = Math.ceil(text.length / CHARS_PER_TOKEN);
    estimates.set(tool, tokens);
  }
  return tokens;
}

/** The same estimate for any text the model reads (a tool's result). */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
