// A turn's tokens per model, read from the result messages of one Claude Code process. RECORDED: the two
// results below are what Claude Code 2.1.331 (@anthropic-ai/claude-agent-sdk 0.3.331) sent, in one
// streaming-input query() against the local Messages mock (100 input and 7 output tokens per call), when
// the first turn's model started a subagent on claude-haiku-4-5 in the background: the subagent's call came
// after the first turn's result, so its tokens are first in the second turn's `modelUsage`. `modelUsage` is
// cumulative across turns; `usage` is the agent loop's of the turn alone (fields we do not read left out).
import { describe, expect, it } from "vitest";
import { readTurnEnd } from "../../src/claude/claude-sdk.js";
import { ClaudeTurnUsage } from "../../src/claude/claude-turn-usage.js";

const perModel = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
  webSearchRequests: 0,
  costUSD: 0,
  contextWindow: 200000,
  maxOutputTokens: 32000,
  thinkingTokens: 0,
});
const loopUsage = (input: number, output: number) => ({
  input_tokens: input,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: output,
});
const FIRST = {
  type: "result",
  subtype: "success",
  is_error: false,
  result: "I asked a helper.",
  usage: loopUsage(200, 14),
  modelUsage: { "claude-sonnet-4-5": perModel(200, 14) },
};
const SECOND = {
  type: "result",
  subtype: "success",
  is_error: false,
  result: "done",
  usage: loopUsage(100, 7),
  modelUsage: { "claude-sonnet-4-5": perModel(300, 21), "claude-haiku-4-5": perModel(100, 7) },
};
const tokens = (input: number, output: number, cached = 0, reasoning = 0) => ({
  inputTokens: input,
  outputTokens: output,
  cachedInputTokens: cached,
  reasoningTokens: reasoning,
});

describe("a Claude Code turn's tokens, per model", () => {
  it("each turn gets what each model spent since the turn before, the loop's model first, another model apart", () => {
    const spent = new ClaudeTurnUsage();
    expect(spent.of(readTurnEnd(FIRST)!, "claude-sonnet-4-5")).toEqual({
      usage: tokens(200, 14),
      modelId: "claude-sonnet-4-5",
    });
    expect(spent.of(readTurnEnd(SECOND)!, "claude-sonnet-4-5")).toEqual({
      usage: tokens(100, 7),
      modelId: "claude-sonnet-4-5",
      otherModels: [{ modelId: "claude-haiku-4-5", usage: tokens(100, 7) }],
    });
  });

  it("cache writes and reads count as input, reads as cached, thinking as reasoning; running totals that start over count whole", () => {
    const spent = new ClaudeTurnUsage();
    const cached = {
      ...FIRST,
      modelUsage: {
        "claude-sonnet-4-5": {
          ...perModel(10, 20),
          cacheReadInputTokens: 30,
          cacheCreationInputTokens: 5,
          thinkingTokens: 4,
        },
      },
    };
    expect(spent.of(readTurnEnd(cached)!, "claude-sonnet-4-5").usage).toEqual({
      ...tokens(45, 20, 30, 4),
      cacheWriteInputTokens: 5, // priced at cacheWriteInput
    });
    // A `/clear` resets Claude Code's totals: the next result's counts are all new.
    expect(spent.of(readTurnEnd(FIRST)!, "claude-sonnet-4-5").usage).toEqual(tokens(200, 14));
  });

  it("a result without modelUsage (a startup failure, an older release) gives the turn's usage as the loop's model", () => {
    const { modelUsage: _none, ...bare } = FIRST;
    expect(new ClaudeTurnUsage().of(readTurnEnd(bare)!, "claude-sonnet-4-5")).toEqual({
      usage: tokens(200, 14),
      modelId: "claude-sonnet-4-5",
    });
  });
});
