// runner.withMcpClient with an SDK v2 client on 2026-07-28: the run reaches an entity-tools server's
// providers through handles, subscribes to tool-list changes with subscriptions/listen, honours ttlMs, and
// reports a tool re-listed with another schema (drift).
import "../fixtures/store/register.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { PromptRunner, type ToolLoopEvent } from "entity-tools";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { Customer } from "../fixtures/store/customer.js";
import { modernEndpoint } from "../support/mcp-v2.js";
import { call, mockModel, offeredAt, text, toolResultsSeenAt } from "../support/mock-model.js";

/** A hand-written 2026-07-28 server whose tool list the test changes, announcing each change. */
function changingServer(ttlMs = 300_000) {
  const tools = new Map<string, { description: string; properties: Record<string, unknown> }>([
    ["lookup", { description: "Look something up", properties: {} }],
  ]);
  let listed = 0;
  const handler = createMcpHandler(() => {
    const server = new Server(
      { name: "changing", version: "1.0.0" },
      {
        capabilities: { tools: { listChanged: true } },
        cacheHints: { "tools/list": { ttlMs, cacheScope: "public" } },
      },
    );
    server.setRequestHandler("tools/list", () => {
      listed++;
      return {
        tools: [...tools].map(([name, t]) => ({
          name,
          description: t.description,
          inputSchema: { type: "object" as const, properties: t.properties as never },
        })),
      };
    });
    server.setRequestHandler("tools/call", (request) => {
      if (request.params.name === "lookup") {
        tools.set("extra", { description: "Added by lookup", properties: {} });
        tools.set("lookup", { description: "Look something up", properties: { q: { type: "string" } } });
        handler.notify.toolsChanged();
      }
      return { content: [{ type: "text", text: `${request.params.name} ran` }] };
    });
    return server;
  });
  const connect = async () => {
    const client = new Client(
      { name: "runner", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL("http://mcp.test/mcp"), {
        fetch: (url, init) => handler.fetch(new Request(url, init)),
      }),
    );
    return client;
  };
  return { connect, listings: () => listed, close: () => handler.close() };
}

describe("runner.withMcpClient with an SDK v2 client on 2026-07-28", () => {
  it("reaches an entity-tools server's providers through the handles its results name", async () => {
    const search = new CustomerSearchTools();
    const client = await modernEndpoint({
      name: "shop",
      version: "1.0.0",
      tools: [search],
      classes: [Customer],
      resolveProvider: (_cls, id) => search.findCustomers("").find((c) => c.id === id),
    }).connect();
    const model = mockModel(call("searchCustomer", { name: "John Smith" }), text("later"));
    await new PromptRunner({ model }).withMcpClient(client).run("q");
    const handle = /"(Customer:[^"]+)"/.exec(toolResultsSeenAt(model, 1)[0]!)![1]!;
    const next = mockModel(call("customer_getAverageSpend", { handle }), text("46.83"));
    await new PromptRunner({ model: next }).withMcpClient(client).run("q");
    expect(offeredAt(next, 0)).toEqual([
      "searchCustomer",
      "findCustomers",
      "customer_getAverageSpend",
      "customer_recentOrders",
    ]);
    expect(toolResultsSeenAt(next, 1)).toEqual(['{"amount":46.83,"currency":"USD"}']);
  });

  it("subscribes with subscriptions/listen: a change is applied between steps, and a re-listed tool whose schema changed is reported", async () => {
    const server = changingServer();
    const client = await server.connect();
    const events: ToolLoopEvent[] = [];
    const model = mockModel(call("lookup"), call("extra"), text("ok"));
    await new PromptRunner({ model })
      .withMcpClient(client)
      .withObserver((e) => events.push(e))
      .run("q");
    expect(offeredAt(model, 0)).toEqual(["lookup"]);
    expect(offeredAt(model, 1)).toEqual(["lookup", "extra"]);
    expect(toolResultsSeenAt(model, 2)).toEqual(["lookup ran", "extra ran"]);
    expect(events.find((e) => e.type === "SourceToolChanged")).toMatchObject({
      source: "mcp:changing (2026-07-28)",
      toolNames: ["lookup"],
    });
    expect(events.find((e) => e.type === "ToolsInjected")).toMatchObject({
      toolNames: ["extra", "lookup"],
      triggeredBy: "mcp:changing (2026-07-28)",
    });
    await client.close();
    await server.close();
  });

  it("honours ttlMs: a list past its ttl is listed again between steps, one within it is not", async () => {
    const fresh = changingServer(300_000);
    const freshClient = await fresh.connect();
    await new PromptRunner({ model: mockModel(call("nothing"), call("nothing"), text("ok")) })
      .withMcpClient(freshClient)
      .run("q");
    expect(fresh.listings()).toBe(1);
    const stale = changingServer(1);
    const staleClient = await stale.connect();
    const slow = { name: "nothing", execute: () => new Promise((r) => setTimeout(() => r("waited"), 10)) };
    await new PromptRunner({ model: mockModel(call("nothing"), call("nothing"), text("ok")) })
      .withTools({ ...slow, description: "waits", inputSchema: { type: "object", properties: {} } })
      .withMcpClient(staleClient)
      .run("q");
    expect(stale.listings()).toBeGreaterThanOrEqual(3);
    await Promise.all([freshClient.close(), staleClient.close(), fresh.close(), stale.close()]);
  });
});
