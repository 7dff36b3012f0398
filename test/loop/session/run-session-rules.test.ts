// Rules the run session applies between calls: tool recency for the budget, the unknown-tool streak,
// and token usage, each observed through the real loop.
import "../../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import { defineTool, PromptRunner, ToolNotFoundError } from "entity-tools";
import { Order } from "../../fixtures/store/order.js";
import { call, mockModel, offeredAt, text } from "../../support/mock-model.js";

const order = (id: string) => new Order(id, "c1", new Date(0), []);
const findOrder = defineTool<{ id: string }, Order>({
  name: "findOrder",
  description: "Find an order",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  execute: ({ id }) => order(id),
});

describe("the run session's rules", () => {
  it("calling an injected tool makes it recently used, so the budget evicts others first", async () => {
    const model = mockModel(
      call("findOrder", { id: "o1" }),
      call("findOrder", { id: "o2" }),
      call("order_o1_getTotal"),
      call("findOrder", { id: "o3" }),
      text("done"),
    );
    await new PromptRunner({ model })
      .withTools(findOrder)
      .withToolProviderDiscovery({ maxInjectedTools: 4 })
      .run("q");
    // Without the refresh, o1's two tools would be the least recently used and go first.
    expect(offeredAt(model, 4).filter((n) => n.startsWith("order_"))).toEqual([
      "order_o1_getTotal",
      "order_o2_getTotal",
      "order_o3_getLineItems",
      "order_o3_getTotal",
    ]);
  });

  it("finding a provider again makes its tools recently used", async () => {
    const model = mockModel(
      call("findOrder", { id: "o1" }),
      call("findOrder", { id: "o2" }),
      call("findOrder", { id: "o1" }),
      call("findOrder", { id: "o3" }),
      text("done"),
    );
    await new PromptRunner({ model })
      .withTools(findOrder)
      .withToolProviderDiscovery({ maxInjectedTools: 4 })
      .run("q");
    expect(offeredAt(model, 4).filter((n) => n.startsWith("order_"))).toEqual([
      "order_o1_getLineItems",
      "order_o1_getTotal",
      "order_o3_getLineItems",
      "order_o3_getTotal",
    ]);
  });

  it("a known call resets the unknown-tool streak", async () => {
    const model = mockModel(
      call("nope"),
      call("nope"),
      call("findOrder", { id: "o1" }),
      call("nope"),
      call("nope"),
      text("done"),
    );
    const run = await new PromptRunner({ model }).withTools(findOrder).run("q");
    expect(run.result).toBe("done");
    expect(run.counters.toolFailures).toBe(4);
  });

  it("the streak ends the run at exactly the limit", async () => {
    const model = mockModel(call("nope"), call("nope"), call("nope"), text("never"));
    const error = await new PromptRunner({ model })
      .withTools(findOrder)
      .run("q")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolNotFoundError);
    expect(model.doGenerateCalls).toHaveLength(3);
  });

  it("adds up the tokens each model call reported", async () => {
    const model = mockModel(
      {
        toolCalls: [{ toolName: "findOrder", input: { id: "o1" } }],
        usage: { inputTokens: 50, outputTokens: 5 },
      },
      { text: "done", usage: { inputTokens: 80, outputTokens: 12 } },
    );
    const run = await new PromptRunner({ model }).withTools(findOrder).run("q");
    expect(run.usage).toEqual({
      inputTokens: 130,
      outputTokens: 17,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
  });
});
