import "../fixtures/register.js";
import { describe, expect, it } from "vitest";
import { bindProviderTools, defineTool } from "entity-tools";
import { ToolRegistry } from "../../src/tools/tool-registry.js";
import { Customer, Order, OrderRepository } from "../fixtures/shop.js";

const repo = new OrderRepository();
const search = defineTool({ name: "searchCustomer", description: "Find a customer", execute: () => null });

describe("ToolRegistry", () => {
  it("adds tools after the initial ones and removes by name", () => {
    const registry = new ToolRegistry([search]);
    const outcome = registry.add(bindProviderTools(new Order("o1", 1, "open")));
    expect(outcome.added.map((t) => t.name)).toEqual(["order_o1_getLineItems"]);
    expect(registry.names()).toEqual(["searchCustomer", "order_o1_getLineItems"]);
    expect(registry.remove(["order_o1_getLineItems", "nope"]).map((t) => t.name)).toEqual([
      "order_o1_getLineItems",
    ]);
    expect(registry.names()).toEqual(["searchCustomer"]);
  });

  it("binds the same instance once when it is found again", () => {
    const registry = new ToolRegistry();
    const john = new Customer("c1", "John", repo);
    registry.add(bindProviderTools(john));
    const again = registry.add(bindProviderTools(john));
    expect(again.added).toEqual([]);
    expect(again.replaced).toEqual([]);
    expect(again.alreadyBound).toHaveLength(3);
    expect(registry.size).toBe(3);
  });

  it("lets a different instance with the same id replace the binding, and reports it", async () => {
    const registry = new ToolRegistry();
    const stale = new Customer("c1", "John (old)", repo);
    const fresh = new Customer("c1", "John (new)", repo);
    registry.add(bindProviderTools(stale));
    const outcome = registry.add(bindProviderTools(fresh));
    expect(
      outcome.replaced.map((r) => [r.previous.origin?.instance, r.next.origin?.instance]),
    ).toContainEqual([stale, fresh]);
    expect(registry.get("customer_c1_getAverageSpend")?.origin?.instance).toBe(fresh);
    expect(registry.size).toBe(3);
  });

  it("keeps two instances of one class apart", () => {
    const registry = new ToolRegistry();
    registry.add([
      ...bindProviderTools(new Order("o1", 1, "open")),
      ...bindProviderTools(new Order("o2", 1, "open")),
    ]);
    expect(registry.names()).toEqual(["order_o1_getLineItems", "order_o2_getLineItems"]);
  });

  it("evicts the least recently used injected tools beyond the budget, never the initial ones", () => {
    const registry = new ToolRegistry([search], { maxInjectedTools: 2 });
    registry.add(bindProviderTools(new Order("o1", 1, "open")));
    registry.add(bindProviderTools(new Order("o2", 1, "open")));
    registry.markUsed("order_o1_getLineItems");
    const outcome = registry.add(bindProviderTools(new Order("o3", 1, "open")));
    expect(outcome.evicted.map((t) => t.name)).toEqual(["order_o2_getLineItems"]);
    expect(registry.names()).toEqual(["searchCustomer", "order_o1_getLineItems", "order_o3_getLineItems"]);
  });
});
