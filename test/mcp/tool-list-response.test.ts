// The tools/list result is made once per list, on both revisions: requests served from an unchanged list
// describe no tool again, and a changed list (tools pushed to the array, other classes, a discovery) is
// described anew. Counted by reads of a tool's description, which only describing a tool makes.
import "../fixtures/store/register.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { defineTool, type ToolSource } from "entity-tools";
import { createMcpServer, type McpServerOptions } from "entity-tools/mcp";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { Customer } from "../fixtures/store/customer.js";
import { countingTool } from "../support/counting-tools.js";
import { modernEndpoint } from "../support/mcp-v2.js";

const search = new CustomerSearchTools();

describe("the tools/list result", () => {
  it("2026-07-28: made once per tool list and classes, not per request; a change to either is listed", async () => {
    const { tool, counts } = countingTool();
    const tools: ToolSource[] = [search, tool];
    const options: McpServerOptions = {
      name: "shop",
      version: "1.0.0",
      tools,
      classes: [Customer],
      resolveProvider: (_cls, id) => search.findCustomers("").find((c) => c.id === id),
    };
    const client = await modernEndpoint(options).connect(); // a server per request
    const list = async () => (await client.listTools(undefined, { cacheMode: "bypass" })).tools;
    const first = await list();
    expect(first.map((t) => t.name)).toEqual([
      "searchCustomer",
      "findCustomers",
      "watched",
      "customer_getAverageSpend",
      "customer_recentOrders",
    ]);
    expect(await list()).toEqual(first);
    await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } }); // finds a handle
    expect(await list()).toEqual(first);
    expect(counts.described).toBe(1);

    tools.push(defineTool({ name: "late", description: "Added later", execute: () => "late" }));
    expect((await list()).map((t) => t.name)).toEqual([
      "searchCustomer",
      "findCustomers",
      "watched",
      "late",
      "customer_getAverageSpend",
      "customer_recentOrders",
    ]);
    expect(counts.described).toBe(2);
    await list();
    expect(counts.described).toBe(2);

    const plainOnly = await modernEndpoint({ ...options, classes: [] }).connect();
    const plain = (await plainOnly.listTools(undefined, { cacheMode: "bypass" })).tools;
    expect(plain.map((t) => t.name)).toEqual(["searchCustomer", "findCustomers", "watched", "late"]);
    expect(counts.described).toBe(3);
  });

  it("2025-11-25: made once per state of the session's list, again after a discovery changed it", async () => {
    const { tool, counts } = countingTool();
    const server = createMcpServer({
      name: "shop",
      version: "1.0.0",
      tools: [search, tool],
      discovery: true,
      newTools: "dispatch",
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    const names = async () => (await client.listTools()).tools.map((t) => t.name);

    const configured = ["searchCustomer", "findCustomers", "watched", "call_discovered_tool"];
    expect(await names()).toEqual(configured);
    expect(await names()).toEqual(configured);
    expect(counts.described).toBe(1);

    await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } });
    const discovered = ["customer_c123_getAverageSpend", "customer_c123_recentOrders"];
    const grown = ["searchCustomer", "findCustomers", "watched", ...discovered, "call_discovered_tool"];
    expect(await names()).toEqual(grown);
    expect(await names()).toEqual(grown);
    expect(counts.described).toBe(2);

    await client.close(); // the session lets its discoveries go: a server connected again lists the rest
    const [again, againServer] = InMemoryTransport.createLinkedPair();
    await server.connect(againServer);
    const next = new Client({ name: "test", version: "1.0.0" });
    await next.connect(again);
    expect((await next.listTools()).tools.map((t) => t.name)).toEqual(configured);
  });
});
