// A scripted turn reports cache writes (`cacheWriteInputTokens`), so a test prices them as a provider that
// writes its prompt cache (Anthropic) would be billed: at `cacheWriteInput`. The debug log prints them beside
// the cached input tokens. On both lanes: ai 6 and ai 7 read the scripted model's usage apart.
import { describe, expect, it } from "vitest";
import { FakePromptRunner } from "entity-tools/testing";

const PRICES = { input: 3, cachedInput: 0.3, cacheWriteInput: 3.75, output: 15 }; // USD per million tokens
const USAGE = {
  inputTokens: 7_100,
  cachedInputTokens: 5_000,
  cacheWriteInputTokens: 2_000,
  outputTokens: 50,
};

describe("C20 a scripted turn with cache writes", () => {
  it("reports them in usage and cost, priced at cacheWriteInput; the debug log prints them", async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line.replace(/^\[entity-tools \S+\] /, ""));
    const run = await new FakePromptRunner()
      .respondWith("an answer that wrote the cache", () => ({ text: "done", usage: USAGE }))
      .withPricing(PRICES)
      .withLogger({ info: log, warn: log, error: log })
      .run("hi");
    expect(run.usage).toEqual({ ...USAGE, reasoningTokens: 0 });
    // 100 uncached, 5,000 read from the cache, 2,000 written to it, 50 out: what Anthropic would bill.
    expect(run.cost!.total).toBeCloseTo((100 * 3 + 5_000 * 0.3 + 2_000 * 3.75 + 50 * 15) / 1e6, 12);
    expect(lines.filter((l) => l.startsWith("step 1"))).toEqual([
      expect.stringMatching(
        /^step 1 \(\S+\): \d+ ms, tokens in 7100 \(cached 5000, cache writes 2000\) out 50 \(reasoning 0\), tool calls: none$/,
      ),
    ]);
  });

  it("a turn without cache writes reports none, and its debug line is as before", async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const run = await new FakePromptRunner()
      .respondWith("an answer", () => ({ text: "done", usage: { inputTokens: 10, outputTokens: 2 } }))
      .withLogger({ info: log, warn: log, error: log })
      .run("hi");
    expect(run.usage).not.toHaveProperty("cacheWriteInputTokens");
    expect(lines.find((l) => l.includes("step 1"))).toMatch(
      /tokens in 10 \(cached 0\) out 2 \(reasoning 0\)/,
    );
  });
});
