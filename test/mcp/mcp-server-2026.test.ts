// createMcpServer on 2026-07-28 (SDK v2, per-request servers): one tool list for every caller and every
// call, with ttlMs; providers a call finds are reached through their handles, re-bound on a later request.
import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import { defineTool, type ToolSource } from "entity-tools";
import { Customer } from "../fixtures/store/customer.js";
import { countingTool } from "../support/counting-tools.js";
import { search, shop } from "../support/shop-endpoint.js";
import { modernEndpoint } from "../support/mcp-v2.js";

const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text;
const handleIn = (result: Record<string, unknown>) => /"(Customer:[^"]+)"/.exec(text(result))![1]!;

describe("createMcpServer on 2026-07-28", () => {
  it("negotiates 2026-07-28 with an SDK v2 client", async () => {
    const client = await shop().connect();
    expect([client.getNegotiatedProtocolVersion(), client.getProtocolEra()]).toEqual([
      "2026-07-28",
      "modern",
    ]);
  });

  it("tools/list is identical for two clients and across calls that discover providers, in a fixed order, with ttlMs", async () => {
    const endpoint = shop();
    const first = await endpoint.connect();
    const second = await endpoint.connect();
    const before = await first.listTools(undefined, { cacheMode: "bypass" });
    await first.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } });
    await second.callTool({ name: "findCustomers", arguments: { text: "Smith" } });
    const after = await first.listTools(undefined, { cacheMode: "bypass" });
    const other = await second.listTools(undefined, { cacheMode: "bypass" });
    expect(after).toEqual(before);
    expect(other).toEqual(before);
    expect(before.tools.map((t) => t.name)).toEqual([
      "searchCustomer",
      "findCustomers",
      "customer_getAverageSpend",
      "customer_recentOrders",
    ]);
    expect([before.ttlMs, before.cacheScope]).toEqual([300_000, "public"]);
  });

  it("a call's result names the handle of each provider it found; a later request re-binds it", async () => {
    const endpoint = shop();
    const found = await (
      await endpoint.connect()
    ).callTool({
      name: "searchCustomer",
      arguments: { name: "John Smith" },
    });
    expect(text(found)).toMatch(
      /^\{"id":"c123","name":"John Smith","email":"john@example.com"\}\n\n\[Customer handle \["Customer:c123~[\w-]{22}"\]; operations: customer_getAverageSpend, customer_recentOrders; pass a handle as "handle"\.\]$/,
    );
    const other = await endpoint.connect(); // another client, another request, another server instance
    const spend = await other.callTool({
      name: "customer_getAverageSpend",
      arguments: { handle: handleIn(found) },
    });
    expect([spend.isError, text(spend)]).toEqual([false, '{"amount":46.83,"currency":"USD"}']);
  });

  it("a forged handle is an error result, and nothing runs", async () => {
    const client = await shop().connect();
    const forged = await client.callTool({
      name: "customer_getAverageSpend",
      arguments: { handle: "Customer:c123~AAAAAAAAAAAAAAAAAAAAAA" },
    });
    expect(forged.isError).toBe(true);
    expect(text(forged)).toMatch(
      /^Invalid arguments for "customer_getAverageSpend": The handle .* has a signature/,
    );
  });

  it("handles minted by one server are accepted by another with the same handleKey (another process)", async () => {
    const found = await (
      await shop().connect()
    ).callTool({
      name: "searchCustomer",
      arguments: { name: "Jane Smith" },
    });
    const elsewhere = modernEndpoint({
      name: "shop",
      version: "1.0.0",
      tools: [],
      classes: [Customer],
      handleKey: "test key of the shop",
      resolveProvider: (_cls, id) => search.findCustomers("").find((c) => c.id === id),
    });
    const spend = await (
      await elsewhere.connect()
    ).callTool({
      name: "customer_getAverageSpend",
      arguments: { handle: handleIn(found) },
    });
    expect(spend.isError).toBe(false);
  });

  it("the same server also serves a 2025-11-25 client (stateless over HTTP: the configured tools)", async () => {
    const client = await shop().connect({ revision: "2025-11-25" });
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["searchCustomer", "findCustomers"]);
    const found = await client.callTool({ name: "findCustomers", arguments: { text: "Khan" } });
    expect(found.isError).toBe(false);
  });

  it("registers the configured tools once per tool list, not per call, and serves a change to the list at the next request", async () => {
    const { tool: watched, counts } = countingTool();
    const tools: ToolSource[] = [search, watched];
    const client = await modernEndpoint({ name: "shop", version: "1.0.0", tools }).connect();
    const findAll = async (names: string[]) => {
      for (const name of names)
        expect((await client.callTool({ name: "findCustomers", arguments: { text: name } })).isError).toBe(
          false,
        );
    };
    await findAll(["Smith", "Khan", "Jones"]);
    // What making one tool list reads of the tool (its registration; the check of explicit schemas, G25).
    const perList = counts.registered;
    expect(perList).toBeLessThanOrEqual(2);
    await findAll(["Lee", "Park"]);
    expect(counts.registered).toBe(perList);

    tools.push(defineTool({ name: "late", description: "Added later", execute: () => "late" }));
    const { tools: listed } = await client.listTools(undefined, { cacheMode: "bypass" });
    expect(listed.map((t) => t.name)).toEqual(["searchCustomer", "findCustomers", "watched", "late"]);
    expect(text(await client.callTool({ name: "late", arguments: {} }))).toBe("late");
    expect(counts.registered).toBe(2 * perList);
  });

  it("what a call adds stays that call's: a later call, served from the same tool list, does not have it", async () => {
    const extra = defineTool({ name: "extra", description: "Added by a strategy", execute: () => "extra" });
    const client = await shop({
      injectionStrategies: [{ evaluateToolResult: () => ({ add: [extra] }) }],
    }).connect();
    const found = await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } });
    expect(found.isError).toBe(false);
    await expect(client.callTool({ name: "extra", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool "extra"'),
    });
    const spend = await client.callTool({
      name: "customer_getAverageSpend",
      arguments: { handle: handleIn(found) },
    });
    expect([spend.isError, text(spend)]).toEqual([false, '{"amount":46.83,"currency":"USD"}']);
  });
});
