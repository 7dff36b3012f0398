import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import { PromptRunner, type ToolLoopEvent } from "entity-tools";
import { SpendAnswer } from "../fixtures/store/answers.js";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { call, mockModel, offeredAt, text, toolResultsSeenAt } from "../support/mock-model.js";

describe("the seed flow through the real AI SDK (MockLanguageModelV3)", () => {
  it("searchCustomer → Customer → customer_c123_getAverageSpend → a SpendAnswer instance", async () => {
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("customer_c123_getAverageSpend"),
      text('{"customerName":"John Smith","averageMonthlySpend":46.83,"currency":"USD"}'),
    );
    const events: ToolLoopEvent[] = [];
    const runner = new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withObserver((e) => events.push(e));

    const run = await runner.run("What is John Smith's average spend?", { output: SpendAnswer });

    expect(offeredAt(model, 0)).toEqual(["searchCustomer", "findCustomers"]);
    expect(offeredAt(model, 1)).toEqual([
      "searchCustomer",
      "findCustomers",
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ]);
    const [customerSeen] = toolResultsSeenAt(model, 1);
    expect(JSON.parse(customerSeen!)).toEqual({ id: "c123", name: "John Smith", email: "john@example.com" });
    expect(toolResultsSeenAt(model, 2)[1]).toBe('{"amount":46.83,"currency":"USD"}');

    expect(run.result).toBeInstanceOf(SpendAnswer);
    expect(run.result).toEqual({ customerName: "John Smith", averageMonthlySpend: 46.83, currency: "USD" });
    expect(run.totalIterations).toBe(3);
    expect(run.injectedTools.map((t) => t.name)).toEqual([
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ]);
    expect(run.conversationHistory.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(JSON.stringify(run.conversationHistory)).not.toContain("s3cret");

    const discovered = events.find((e) => e.type === "ToolProviderDiscovered");
    expect(discovered).toMatchObject({
      instanceId: "c123",
      exposedTools: ["customer_c123_getAverageSpend", "customer_c123_recentOrders"],
      methods: {
        customer_c123_getAverageSpend: "getAverageSpend",
        customer_c123_recentOrders: "getRecentOrders",
      },
      replacedEarlierInstance: false,
    });
    expect(run.counters).toMatchObject({
      modelCalls: 3,
      toolCalls: 2,
      toolFailures: 0,
      toolsInjected: 2,
      providersDiscovered: 1,
    });
  });

  it("sends the JSON-output instruction and the tool schemas to the model", async () => {
    const model = mockModel(text('{"customerName":"x","averageMonthlySpend":1,"currency":"USD"}'));
    await new PromptRunner({ model })
      .withSystemPrompt("Be brief.")
      .withTools(new CustomerSearchTools())
      .createObject(SpendAnswer, "q");
    const first = model.doGenerateCalls[0]!;
    const system = first.prompt[0];
    expect(system?.role).toBe("system");
    expect(String(system?.content)).toMatch(
      /^Be brief\.\n\nWhen you have the final answer, reply with only a JSON object/,
    );
    expect(String(system?.content)).toContain('"averageMonthlySpend":{"type":"number"}');
    expect(first.tools?.[0]).toMatchObject({
      type: "function",
      name: "searchCustomer",
      description: "Find the customer with this exact name",
      inputSchema: {
        type: "object",
        properties: { name: { type: "string", description: "The customer's full name" } },
        required: ["name"],
      },
    });
  });
});
