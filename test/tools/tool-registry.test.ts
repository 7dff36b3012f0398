import "../fixtures/register.js";
import { describe, expect, it } from "vitest";
import { bindProviderTools, defineTool, estimateDefinitionTokens } from "entity-tools";
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

  it("one addition with two instances of one binding (or two plain tools of one name) keeps the first", () => {
    const registry = new ToolRegistry([], { maxInjectedTools: 4 });
    const first = new Customer("c1", "John (first)", repo);
    const plain = (n: number) => defineTool({ name: "lookup", description: `Lookup ${n}`, execute: () => n });
    const [one, two] = [plain(1), plain(2)];
    const outcome = registry.add([
      ...bindProviderTools(first),
      one,
      ...bindProviderTools(new Customer("c1", "John (later)", repo)),
      two,
    ]);
    expect(outcome.added.map((t) => t.name)).toEqual([...registry.names()]);
    expect(outcome.replaced).toEqual([]);
    expect(outcome.skipped).toEqual([]);
    expect(registry.get("customer_c1_getAverageSpend")?.origin?.instance).toBe(first);
    expect(registry.get("lookup")).toBe(one);
    expect(registry.size).toBe(4);
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

  it("one addition larger than the budget: its first entities whole, never a later one in place of an earlier", () => {
    const registry = new ToolRegistry([search], { maxInjectedTools: 4 });
    const first = bindProviderTools(new Customer("c1", "Ann", repo)); // three tools
    const second = bindProviderTools(new Customer("c2", "Bo", repo));
    const order = bindProviderTools(new Order("o1", 1, "open")); // one tool
    const outcome = registry.add([...first, ...second, ...order]);
    // c2 does not fit after c1; o1 would, but it comes after c2, so it waits too
    expect(registry.names()).toEqual(["searchCustomer", ...first.map((t) => t.name)]);
    expect(outcome.skipped.map((t) => t.name)).toEqual([...second, ...order].map((t) => t.name));
    expect(outcome.evicted).toEqual([]);
    const again = registry.add([...first, ...second]);
    expect(again.alreadyBound.map((t) => t.name)).toEqual(first.map((t) => t.name));
    expect(again.skipped).toHaveLength(3);
    expect(again.evicted).toEqual([]);
  });

  it("an entity larger than the whole budget, when first, gets the first of its tools that fit", () => {
    const registry = new ToolRegistry([], { maxInjectedTools: 1 });
    const tools = bindProviderTools(new Customer("c1", "Ann", repo));
    const outcome = registry.add(tools);
    expect(registry.names()).toEqual([tools[0]!.name]);
    expect(outcome.skipped).toEqual(tools.slice(1));
  });

  it("maxInjectedTokens: the same rule by definition tokens: one addition keeps its first entities, later additions evict", () => {
    const first = bindProviderTools(new Customer("c1", "Ann", repo));
    const second = bindProviderTools(new Customer("c2", "Bo", repo));
    const tokens = (tools: typeof first) => tools.reduce((sum, t) => sum + estimateDefinitionTokens(t), 0);
    const registry = new ToolRegistry([search], {
      maxInjectedTokens: Math.max(tokens(first), tokens(second)),
    });
    const outcome = registry.add([...first, ...second]);
    expect(registry.names()).toEqual(["searchCustomer", ...first.map((t) => t.name)]);
    expect(outcome.skipped.map((t) => t.name)).toEqual(second.map((t) => t.name));
    const later = registry.add(second);
    expect(later.evicted.map((t) => t.name)).toEqual(first.map((t) => t.name));
    expect(registry.names()).toEqual(["searchCustomer", ...second.map((t) => t.name)]);
  });

  it("fork: the fork holds what the registry held, and from then on each side's changes are its own", () => {
    const registry = new ToolRegistry([search], { maxInjectedTools: 2 });
    registry.add(bindProviderTools(new Order("o1", 1, "open")));
    const fork = registry.fork();
    expect(fork.names()).toEqual(registry.names());

    const replacement = defineTool({ name: "searchCustomer", description: "Another", execute: () => 1 });
    fork.add(bindProviderTools(new Order("o2", 1, "open")));
    fork.add([replacement]);
    fork.remove(["order_o1_getLineItems"]);
    registry.add(bindProviderTools(new Order("o3", 1, "open")));

    expect(fork.names()).toEqual(["searchCustomer", "order_o2_getLineItems"]);
    expect(fork.get("searchCustomer")).toBe(replacement);
    expect(registry.names()).toEqual(["searchCustomer", "order_o1_getLineItems", "order_o3_getLineItems"]);
    expect(registry.get("searchCustomer")).toBe(search);
    // The budget counts what each side holds: the fork's o1 was removed, so two more fit without eviction.
    expect(fork.add(bindProviderTools(new Order("o4", 1, "open"))).evicted).toEqual([]);
    expect(registry.add(bindProviderTools(new Order("o5", 1, "open"))).evicted.map((t) => t.name)).toEqual([
      "order_o1_getLineItems",
    ]);
  });

  it("fork: a name the registry gave a binding stays that binding's in the fork (renames agree)", () => {
    const registry = new ToolRegistry();
    const first = new Customer("c1", "John", repo);
    registry.add(bindProviderTools(first));
    const fork = registry.fork();
    const renamed = fork.add([{ ...search, name: "customer_c1_getAverageSpend" }]).renamed;
    expect(renamed.map((r) => r.requested)).toEqual(["customer_c1_getAverageSpend"]);
    expect(fork.get("customer_c1_getAverageSpend")?.origin?.instance).toBe(first);
  });

  it("replacePermanent puts new permanent tools first, keeps the injected ones and their budget, in place", () => {
    const registry = new ToolRegistry([search], { maxInjectedTools: 2 });
    registry.add(bindProviderTools(new Order("o1", 1, "open")));
    const find = defineTool({ name: "findOrder", description: "Find an order", execute: () => null });
    const rebound = { ...search, description: "Find a customer by name" };
    registry.replacePermanent([rebound, find]);
    expect(registry.names()).toEqual(["searchCustomer", "findOrder", "order_o1_getLineItems"]);
    expect(registry.get("searchCustomer")).toBe(rebound);
    // The permanent tools are never evicted; the injected ones still share the budget of 2.
    registry.add(bindProviderTools(new Order("o2", 1, "open")));
    registry.add(bindProviderTools(new Order("o3", 1, "open")));
    expect(registry.names()).toEqual([
      "searchCustomer",
      "findOrder",
      "order_o2_getLineItems",
      "order_o3_getLineItems",
    ]);
    registry.replacePermanent([search]);
    expect(registry.names()).toEqual(["searchCustomer", "order_o2_getLineItems", "order_o3_getLineItems"]);
  });
});
