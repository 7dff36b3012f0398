// `perProvider` is a share of `total`: each request's attribution is capped by what that request's input
// cost, at its own price per input token (cached tokens at the cached price), whatever the estimates say.
import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  PromptRunner,
  type RunCost,
  type ToolLoopEvent,
  type ToolProviderDiscoveredEvent,
  type TokenUsage,
} from "entity-tools";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { call, mockModel } from "../support/mock-model.js";

const PRICES = { input: 2, cachedInput: 0.5, output: 10 }; // USD per million tokens

/**
 * Both Smiths are discovered at step 1, their tools offered at steps 2 and 3; John's one call (step 2) puts
 * its result into step 3's request. Returns the cost and each estimate the attribution starts from.
 */
type Input = Pick<TokenUsage, "inputTokens"> & Partial<Pick<TokenUsage, "cachedInputTokens">>;

async function smithsRun(step2?: Input, step3?: Input) {
  const events: ToolLoopEvent[] = [];
  const run = await new PromptRunner({
    model: mockModel(
      call("findCustomers", { text: "Smith" }),
      { ...call("customer_c123_getAverageSpend"), ...(step2 && { usage: { outputTokens: 0, ...step2 } }) },
      { text: "46.83", ...(step3 && { usage: { outputTokens: 0, ...step3 } }) },
    ),
  })
    .withTools(new CustomerSearchTools())
    .withToolProviderDiscovery()
    .withPricing(PRICES)
    .withObserver((e) => events.push(e))
    .run("What does John Smith spend?");
  const definitions = (id: string) =>
    Object.values(
      events
        .filter((e): e is ToolProviderDiscoveredEvent => e.type === "ToolProviderDiscovered")
        .find((d) => d.instanceId === id)!.definitionTokens,
    ).reduce((a, b) => a + b, 0);
  const result = events.find(
    (e) => e.type === "ToolInvoked" && e.toolName === "customer_c123_getAverageSpend",
  ) as { resultText: string };
  return {
    cost: run.cost!,
    john: definitions("c123"),
    jane: definitions("c456"),
    johnsResult: Math.ceil(result.resultText.length / 4),
  };
}

const costs = (cost: RunCost) => cost.perProvider.map((p) => p.cost);
const attributed = (cost: RunCost) => costs(cost).reduce((a, b) => a + b, 0);

describe("perProvider is a share of total", () => {
  it("an ordinary run: each estimated token at the input price", async () => {
    const { cost, john, jane, johnsResult } = await smithsRun({ inputTokens: 3_000 }, { inputTokens: 4_000 });
    expect(costs(cost)).toEqual([((2 * john + johnsResult) * 2) / 1e6, (2 * jane * 2) / 1e6]);
    expect(attributed(cost)).toBeLessThanOrEqual(cost.total);
  });

  it("a model that reports no usage: total 0, nothing attributed, the estimates still reported", async () => {
    const { cost, john, jane, johnsResult } = await smithsRun();
    expect(cost.total).toBe(0);
    expect(costs(cost)).toEqual([0, 0]);
    expect(cost.perProvider.map((p) => [p.definitionTokens, p.resultTokens])).toEqual([
      [2 * john, johnsResult],
      [2 * jane, 0],
    ]);
  });

  it("cached input: the tokens at the request's own price per input token", async () => {
    // Step 2: a quarter of its input uncached; step 3: all of it read from the cache.
    const { cost, john, jane, johnsResult } = await smithsRun(
      { inputTokens: 400, cachedInputTokens: 300 },
      { inputTokens: 400, cachedInputTokens: 400 },
    );
    const step2 = (100 * 2 + 300 * 0.5) / 400;
    const step3 = 0.5;
    expect(costs(cost)[0]).toBeCloseTo((john * step2 + (john + johnsResult) * step3) / 1e6, 15);
    expect(costs(cost)[1]).toBeCloseTo((jane * step2 + jane * step3) / 1e6, 15);
    expect(cost.total).toBeCloseTo((400 * step2 + 400 * step3) / 1e6, 15);
    expect(attributed(cost)).toBeLessThanOrEqual(cost.total);
  });

  it("estimates above the input tokens reported: scaled down to them, in proportion", async () => {
    const { cost, john, jane, johnsResult } = await smithsRun({ inputTokens: 10 }, { inputTokens: 20 });
    expect(john + jane).toBeGreaterThan(10);
    const step2 = (10 * 2) / 1e6 / (john + jane);
    const step3 = (20 * 2) / 1e6 / (john + jane + johnsResult);
    expect(costs(cost)[0]).toBeCloseTo(john * step2 + (john + johnsResult) * step3, 15);
    expect(costs(cost)[1]).toBeCloseTo(jane * step2 + jane * step3, 15);
    // The whole input of both requests, and no more: the run's total is exactly that.
    expect(attributed(cost)).toBeCloseTo(cost.total, 15);
    expect(attributed(cost)).toBeLessThanOrEqual(cost.total);
  });
});
