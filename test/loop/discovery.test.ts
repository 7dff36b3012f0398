import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import { defineTool, PromptRunner, type ToolInjectionStrategy } from "entity-tools";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { CartTools, ShoppingCart } from "../fixtures/store/shopping-cart.js";
import { Order } from "../fixtures/store/order.js";
import { call, mockModel, offeredAt, text, toolResultsSeenAt } from "../support/mock-model.js";

const discoveryRunner = (model: ReturnType<typeof mockModel>) =>
  new PromptRunner({ model }).withTools(new CustomerSearchTools()).withToolProviderDiscovery();

describe("discovery", () => {
  it("a search returning two customers offers both sets of tools, and both are callable", async () => {
    const model = mockModel(
      call("findCustomers", { text: "Smith" }),
      {
        toolCalls: [
          { toolName: "customer_c123_getAverageSpend" },
          { toolName: "customer_c456_getAverageSpend" },
        ],
      },
      text("John 46.83, Jane 16.58"),
    );
    const run = await discoveryRunner(model).run("Compare the Smiths");
    expect(offeredAt(model, 1).filter((n) => n.startsWith("customer_"))).toEqual([
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
      "customer_c456_getAverageSpend",
      "customer_c456_recentOrders",
    ]);
    expect(toolResultsSeenAt(model, 2).slice(1)).toEqual([
      '{"amount":46.83,"currency":"USD"}',
      '{"amount":16.58,"currency":"USD"}',
    ]);
    expect(run.counters.providersDiscovered).toBe(2);
  });

  it("nested discovery: recentOrders returns Order providers whose getLineItems can be called", async () => {
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("customer_c123_recentOrders", { limit: 2 }),
      call("order_o-1001_getLineItems"),
      text("A keyboard"),
    );
    const run = await discoveryRunner(model).run("What did John buy last?");
    expect(offeredAt(model, 2)).toEqual(
      expect.arrayContaining(["order_o-1001_getLineItems", "order_o-1001_getTotal", "order_o-1002_getTotal"]),
    );
    expect(offeredAt(model, 2)).not.toContain("order_o-1003_getTotal");
    expect(JSON.parse(toolResultsSeenAt(model, 3)[2]!)).toEqual([
      { sku: "KB-01", description: "Mechanical keyboard", quantity: 1, unitPrice: 129 },
    ]);
    expect(run.injectedTools.map((t) => t.name)).toContain("order_o-1002_getLineItems");
  });

  it("a stateful provider keeps its state across calls on the same bound instance", async () => {
    const model = mockModel(
      call("createCart"),
      call("cart_cart1_addItem", { sku: "MS-02", quantity: 2 }),
      call("cart_cart1_addItem", { sku: "PD-07" }),
      call("cart_cart1_getTotal"),
      text("104 USD"),
    );
    const tools = new CartTools();
    const run = await new PromptRunner({ model })
      .withTools(tools)
      .withToolProviderDiscovery()
      .run("Buy things");
    expect(toolResultsSeenAt(model, 4)[3]).toBe('{"amount":104,"currency":"USD"}');
    const cart = run.injectedTools[0]!.origin!.instance as ShoppingCart;
    expect(cart.lines.map((l) => [l.sku, l.quantity])).toEqual([
      ["MS-02", 2],
      ["PD-07", 1],
    ]);
    // The addItem result returns the cart itself: found again, bound once.
    expect(run.injectedTools).toHaveLength(4);
  });

  it("without discovery a returned provider adds no tools", async () => {
    const model = mockModel(call("searchCustomer", { name: "John Smith" }), text("done"));
    const run = await new PromptRunner({ model }).withTools(new CustomerSearchTools()).run("q");
    expect(offeredAt(model, 1)).toEqual(["searchCustomer", "findCustomers"]);
    expect(run.injectedTools).toEqual([]);
  });

  it("a different instance with the same id replaces the binding: the newest state wins", async () => {
    const first = new Order("o-9", "c1", new Date(0), []);
    const second = new Order("o-9", "c1", new Date(0), []);
    let served = 0;
    const lookup = defineTool({
      name: "lookup",
      description: "Look the order up",
      execute: () => (served++ === 0 ? first : second),
    });
    const model = mockModel(call("lookup"), call("lookup"), text("ok"));
    const events: string[] = [];
    const run = await new PromptRunner({ model })
      .withTools(lookup)
      .withToolProviderDiscovery()
      .withObserver(
        (e) =>
          e.type === "ToolProviderDiscovered" && events.push(`${e.instanceId}:${e.replacedEarlierInstance}`),
      )
      .run("q");
    expect(events).toEqual(["o-9:false", "o-9:true"]);
    expect(
      run.injectedTools.filter((t) => t.name === "order_o-9_getTotal").map((t) => t.origin?.instance),
    ).toEqual([first, second]);
  });

  it("a provider without an id is skipped and the model is told why; the others still bind", async () => {
    const broken = new Order(undefined as unknown as string, "c1", new Date(0), []);
    const good = new Order("o-1", "c1", new Date(0), []);
    const list = defineTool({ name: "list", description: "List orders", execute: () => [broken, good] });
    const model = mockModel(call("list"), text("ok"));
    await new PromptRunner({ model }).withTools(list).withToolProviderDiscovery().run("q");
    expect(offeredAt(model, 1)).toEqual(["list", "order_o-1_getLineItems", "order_o-1_getTotal"]);
    expect(toolResultsSeenAt(model, 1)[0]).toContain(
      '[Cannot expose tools of Order: its id property "id" is undefined; no tools were added for it.]',
    );
  });
});

describe("strategies", () => {
  it("a custom strategy can remove tools; strategies run in the order added after every call", async () => {
    const seen: string[] = [];
    const oneShot: ToolInjectionStrategy = {
      evaluateToolResult: ({ lastToolCall, currentTools, iterationCount }) => {
        seen.push(`${iterationCount}:${lastToolCall.toolName}:${currentTools.length}`);
        return lastToolCall.toolName === "searchCustomer" ? { remove: ["searchCustomer"] } : {};
      },
    };
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("customer_c123_getAverageSpend"),
      text("ok"),
    );
    const run = await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withInjectionStrategy(oneShot)
      .run("q");
    // Discovery ran first (4 tools by the time the custom strategy looked), then searchCustomer was removed.
    expect(seen).toEqual(["1:searchCustomer:4", "2:customer_c123_getAverageSpend:3"]);
    expect(offeredAt(model, 1)).toEqual([
      "findCustomers",
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ]);
    expect(run.result).toBe("ok");
  });

  it("resultObject is the live value, not a re-parse of the text", async () => {
    let live: unknown;
    const model = mockModel(call("searchCustomer", { name: "John Smith" }), text("ok"));
    const tools = new CustomerSearchTools();
    await new PromptRunner({ model })
      .withTools(tools)
      .withInjectionStrategy({
        evaluateToolResult: ({ lastToolCall }) => ((live = lastToolCall.resultObject), {}),
      })
      .run("q");
    expect(live).toBe(tools.searchCustomer("John Smith"));
  });

  it("the budget evicts the least recently used tools of earlier results and tells the model", async () => {
    const model = mockModel(
      call("findCustomers", { text: "Smith" }),
      call("customer_c456_getAverageSpend"),
      call("findCustomers", { text: "Khan" }),
      text("ok"),
    );
    const run = await discoveryRunner(model).withToolProviderDiscovery({ maxInjectedTools: 4 }).run("q");
    expect(offeredAt(model, 3)).toEqual([
      "searchCustomer",
      "findCustomers",
      "customer_c456_getAverageSpend",
      "customer_c456_recentOrders",
      "customer_c789_getAverageSpend",
      "customer_c789_recentOrders",
    ]);
    expect(toolResultsSeenAt(model, 3)[2]).toContain(
      "[Tool budget reached: these least recently used tools were removed: customer_c123_getAverageSpend, customer_c123_recentOrders. Call the tool that returned their object again to get them back.]",
    );
    expect(run.injectedTools).toHaveLength(6);
  });

  // Both ways a run reports providers: events built for observers, or only the counter for nobody.
  it.each([false, true])(
    "providersDiscovered counts each provider once, found again after a restart or an eviction (observed: %s)",
    async (observed) => {
      let restarted = false;
      const restartOnce: ToolInjectionStrategy = {
        evaluateToolResult: () => (restarted ? {} : ((restarted = true), { restart: { reason: "again" } })),
      };
      const model = mockModel(
        call("searchCustomer", { name: "John Smith" }), // c123, then the strategy restarts the run
        call("searchCustomer", { name: "John Smith" }), // c123 again, in the new attempt
        call("findCustomers", { text: "Smith" }), // c456 (c123 already bound)
        call("findCustomers", { text: "Khan" }), // c789, evicting c123
        call("findCustomers", { text: "Smith" }), // c123 again, evicting c456
        text("ok"),
      );
      const discovered: string[] = [];
      const runner = discoveryRunner(model)
        .withToolProviderDiscovery({ maxInjectedTools: 4 })
        .withInjectionStrategy(restartOnce);
      const run = await (
        observed
          ? runner.withObserver((e) => e.type === "ToolProviderDiscovered" && discovered.push(e.instanceId))
          : runner
      ).run("q");
      expect(run.counters.restarts).toBe(1);
      expect(offeredAt(model, 5)).toContain("customer_c123_getAverageSpend");
      expect(run.counters.providersDiscovered).toBe(3);
      // Each time it is bound anew, an observer hears of it.
      if (observed) expect(discovered).toEqual(["c123", "c123", "c456", "c789", "c123"]);
    },
  );

  it("one result with more tools than the budget binds its first entities whole, and the same call again changes nothing", async () => {
    const everyone = call("findCustomers", { text: "" }); // John Smith, Jane Smith, Ahmed Khan, in rank order
    const model = mockModel(everyone, everyone, call("customer_c123_getAverageSpend"), text("ok"));
    const run = await discoveryRunner(model).withToolProviderDiscovery({ maxInjectedTools: 3 }).run("q");
    const firstOnly = [
      "searchCustomer",
      "findCustomers",
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ];
    expect(offeredAt(model, 1)).toEqual(firstOnly);
    expect(offeredAt(model, 2)).toEqual(firstOnly);
    const notice =
      "[Tool budget reached: of this result's 3 entities, only the first 1 got tools (2 tools); the other 2 did not. Calling the same tool again binds the same first ones. To reach one of the others, call a tool that returns fewer results with it among the first (a narrower search, a filter, a smaller page).]";
    expect(toolResultsSeenAt(model, 1)[0]).toContain(notice);
    expect(toolResultsSeenAt(model, 2)[1]).toContain(notice);
    expect(toolResultsSeenAt(model, 2)[1]).not.toContain("removed");
    expect(toolResultsSeenAt(model, 3)[2]).toBe('{"amount":46.83,"currency":"USD"}');
    expect(run.injectedTools.map((t) => t.name)).toEqual(firstOnly.slice(2));
    expect(run.counters.providersDiscovered).toBe(1);
  });

  it("a narrower search then reaches an entity the budget left out, in place of the least recently used", async () => {
    const model = mockModel(
      call("findCustomers", { text: "" }),
      call("findCustomers", { text: "Khan" }),
      call("customer_c789_getAverageSpend"),
      text("ok"),
    );
    await discoveryRunner(model).withToolProviderDiscovery({ maxInjectedTools: 3 }).run("q");
    expect(offeredAt(model, 2)).toEqual([
      "searchCustomer",
      "findCustomers",
      "customer_c123_recentOrders",
      "customer_c789_getAverageSpend",
      "customer_c789_recentOrders",
    ]);
    const narrower = toolResultsSeenAt(model, 2)[1];
    expect(narrower).toContain("removed: customer_c123_getAverageSpend. Call the tool");
    expect(narrower).not.toContain("of this result's");
  });
});
