// Per-step usage (cached and reasoning tokens, latency) on the step events, run totals, cost with
// withPricing, attribution of definition and result tokens to each discovered provider, and the
// definition-token budget.
import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  estimateDefinitionTokens,
  PromptRunner,
  type ModelRespondedEvent,
  type ToolLoopEvent,
  type ToolProviderDiscoveredEvent,
} from "entity-tools";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { call, mockModel, offeredAt, text } from "../support/mock-model.js";

const PRICES = { input: 2, cachedInput: 0.5, output: 10 }; // USD per million tokens

function smithsRun() {
  return mockModel(
    { ...call("findCustomers", { text: "Smith" }), usage: { inputTokens: 1_000, outputTokens: 20 } },
    {
      ...call("customer_c123_getAverageSpend"),
      usage: { inputTokens: 3_000, outputTokens: 30, cachedInputTokens: 1_000 },
    },
    {
      text: "46.83",
      usage: { inputTokens: 4_000, outputTokens: 200, cachedInputTokens: 3_000, reasoningTokens: 150 },
    },
  );
}

describe("usage and cost", () => {
  it("each step event carries its usage, latency and model; the result has run totals", async () => {
    const events: ToolLoopEvent[] = [];
    const run = await new PromptRunner({ model: smithsRun() })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withObserver((e) => events.push(e))
      .run("What does John Smith spend?");
    const steps = events.filter((e): e is ModelRespondedEvent => e.type === "ModelResponded");
    expect(steps.map((s) => s.usage)).toEqual([
      { inputTokens: 1_000, outputTokens: 20, cachedInputTokens: 0, reasoningTokens: 0 },
      { inputTokens: 3_000, outputTokens: 30, cachedInputTokens: 1_000, reasoningTokens: 0 },
      { inputTokens: 4_000, outputTokens: 200, cachedInputTokens: 3_000, reasoningTokens: 150 },
    ]);
    expect(steps.every((s) => s.modelId === "mock-model-id" && s.durationMs >= 0)).toBe(true);
    expect(run.usage).toEqual({
      inputTokens: 8_000,
      outputTokens: 250,
      cachedInputTokens: 4_000,
      reasoningTokens: 150,
    });
    expect(run.cost).toBeUndefined(); // no pricing, no cost
  });

  it("withPricing: cost per step and per run, and what each discovered provider's tools and calls added", async () => {
    const events: ToolLoopEvent[] = [];
    const run = await new PromptRunner({ model: smithsRun() })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withPricing(PRICES)
      .withObserver((e) => events.push(e))
      .run("What does John Smith spend?");
    const stepCosts = [
      (1_000 * 2 + 20 * 10) / 1e6,
      (2_000 * 2 + 1_000 * 0.5 + 30 * 10) / 1e6,
      (1_000 * 2 + 3_000 * 0.5 + 200 * 10) / 1e6,
    ];
    expect(run.cost!.perStep.map((s) => s.cost)).toEqual(stepCosts);
    expect(run.cost!.perStep.map((s) => s.iteration)).toEqual([1, 2, 3]);
    expect(run.cost!.total).toBeCloseTo(stepCosts[0]! + stepCosts[1]! + stepCosts[2]!, 12);

    // Both Smiths were discovered at step 1; their tools were offered at steps 2 and 3. John's one call
    // (at step 2) put its result into step 3's request.
    const discovered = events.filter(
      (e): e is ToolProviderDiscoveredEvent => e.type === "ToolProviderDiscovered",
    );
    const definitionTokens = (id: string) =>
      Object.values(discovered.find((d) => d.instanceId === id)!.definitionTokens).reduce((a, b) => a + b, 0);
    const johnsResult = events.find(
      (e) => e.type === "ToolInvoked" && e.toolName === "customer_c123_getAverageSpend",
    );
    const resultTokens = Math.ceil((johnsResult as { resultText: string }).resultText.length / 4);
    // Each token at its request's price per input token: step 2 read a third of its input from the cache,
    // step 3 three quarters.
    const [step2, step3] = [(2_000 * 2 + 1_000 * 0.5) / 3_000, (1_000 * 2 + 3_000 * 0.5) / 4_000];
    expect(run.cost!.perProvider).toEqual([
      {
        providerClass: "Customer",
        identity: { providerClass: "Customer", id: "c123", idType: "string" },
        instanceId: "c123",
        definitionTokens: 2 * definitionTokens("c123"),
        calls: 1,
        resultTokens,
        cost: expect.closeTo(
          (definitionTokens("c123") * step2 + (definitionTokens("c123") + resultTokens) * step3) / 1e6,
          15,
        ),
      },
      {
        providerClass: "Customer",
        identity: { providerClass: "Customer", id: "c456", idType: "string" },
        instanceId: "c456",
        definitionTokens: 2 * definitionTokens("c456"),
        calls: 0,
        resultTokens: 0,
        cost: expect.closeTo((definitionTokens("c456") * (step2 + step3)) / 1e6, 15),
      },
    ]);
    expect(definitionTokens("c123")).toBeGreaterThan(10);
  });

  it("pricing may be a function of the model id", async () => {
    const seen: (string | undefined)[] = [];
    const run = await new PromptRunner({
      model: mockModel({ text: "hi", usage: { inputTokens: 10, outputTokens: 1 } }),
    })
      .withPricing((modelId) => {
        seen.push(modelId);
        return { input: 1, output: 1 };
      })
      .run("q");
    expect(seen).toEqual(["mock-model-id"]);
    expect(run.cost!.total).toBe(11 / 1e6);
  });

  it("maxInjectedTokens evicts the least recently used injected tools by their definition tokens", async () => {
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("searchCustomer", { name: "Jane Smith" }),
      text("done"),
    );
    const probe = new PromptRunner({
      model: mockModel(call("searchCustomer", { name: "John Smith" }), text("x")),
    })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery();
    const injected = (await probe.run("q")).injectedTools;
    const oneCustomer = injected.reduce((sum, t) => sum + estimateDefinitionTokens(t), 0);

    const events: ToolLoopEvent[] = [];
    await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery({ maxInjectedTokens: oneCustomer })
      .withObserver((e) => events.push(e))
      .run("q");
    // One customer's tools fit; when Jane's come in, John's (used less recently) make room.
    expect(offeredAt(model, 1)).toEqual([
      "searchCustomer",
      "findCustomers",
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ]);
    expect(offeredAt(model, 2)).toEqual([
      "searchCustomer",
      "findCustomers",
      "customer_c456_getAverageSpend",
      "customer_c456_recentOrders",
    ]);
    expect(events.find((e) => e.type === "ToolsRemoved")).toMatchObject({
      reason: "budget",
      toolNames: ["customer_c123_getAverageSpend", "customer_c123_recentOrders"],
    });
  });
});

describe("usage and cost in handles mode", () => {
  it("a class tool's call and its result are attributed to the provider whose handle it passed", async () => {
    const events: ToolLoopEvent[] = [];
    const handleOf = (id: string) =>
      events
        .filter((e): e is ToolProviderDiscoveredEvent => e.type === "ToolProviderDiscovered")
        .find((e) => e.instanceId === id)!.handle!;
    const model = mockModel(
      { ...call("findCustomers", { text: "Smith" }), usage: { inputTokens: 1_000, outputTokens: 20 } },
      () => ({ ...call("customer_getAverageSpend", { handle: handleOf("c123") }) }),
      { text: "46.83", usage: { inputTokens: 4_000, outputTokens: 200 } },
    );
    const run = await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery({ binding: "handles" })
      .withPricing(PRICES)
      .withObserver((e) => events.push(e))
      .run("What does John Smith spend?");
    const result = events.find((e) => e.type === "ToolInvoked" && e.toolName === "customer_getAverageSpend");
    const resultTokens = Math.ceil((result as { resultText: string }).resultText.length / 4);
    expect(run.cost!.perProvider).toEqual([
      {
        providerClass: "Customer",
        identity: { providerClass: "Customer", id: "c123", idType: "string" },
        instanceId: "c123",
        definitionTokens: 0,
        calls: 1,
        resultTokens,
        cost: (resultTokens * 2) / 1e6,
      },
      {
        providerClass: "Customer",
        identity: { providerClass: "Customer", id: "c456", idType: "string" },
        instanceId: "c456",
        definitionTokens: 0,
        calls: 0,
        resultTokens: 0,
        cost: 0,
      },
    ]);
  });
});
