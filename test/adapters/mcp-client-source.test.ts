// runner.withMcpClient: an MCP server's tools join the run, and tools it adds mid-run (list_changed)
// are injected between steps, exactly as discovery does.
import "../fixtures/store/register.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { defineTool, PromptRunner, ToolSourceClashError, type ToolLoopEvent } from "entity-tools";
import { createMcpServer, type McpClientLike, type McpClientOptions } from "entity-tools/mcp";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { call, mockModel, offeredAt, text, toolResultsSeenAt } from "../support/mock-model.js";

const explode = defineTool({
  name: "explode",
  description: "Fails on the server",
  execute: () => {
    throw new Error("kaboom");
  },
});

async function shopClient(): Promise<Client> {
  const server = createMcpServer({
    name: "shop",
    version: "1.0.0",
    tools: [new CustomerSearchTools(), explode],
    discovery: true,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "runner", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("runner.withMcpClient", () => {
  it("offers the server's tools, calls them on the server, and picks up tools the server adds mid-run", async () => {
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("customer_c123_getAverageSpend"),
      text("46.83 USD"),
    );
    const events: ToolLoopEvent[] = [];
    const run = await new PromptRunner({ model })
      .withMcpClient(await shopClient())
      .withObserver((e) => events.push(e))
      .run("What does John spend?");
    expect(offeredAt(model, 0)).toEqual(["searchCustomer", "findCustomers", "explode"]);
    expect(offeredAt(model, 1)).toEqual([
      "searchCustomer",
      "findCustomers",
      "explode",
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ]);
    expect(toolResultsSeenAt(model, 2)).toEqual([
      '{"id":"c123","name":"John Smith","email":"john@example.com"}',
      '{"amount":46.83,"currency":"USD"}',
    ]);
    expect(events.find((e) => e.type === "ToolsInjected")).toMatchObject({ triggeredBy: "mcp:shop" });
    expect(run.result).toBe("46.83 USD");
  });

  it("input is validated against the server's schema before the call; a server's error result reaches the model", async () => {
    const model = mockModel(call("searchCustomer", { name: 42 }), call("explode"), text("sorry"));
    await new PromptRunner({ model }).withMcpClient(await shopClient()).run("q");
    expect(toolResultsSeenAt(model, 2)).toEqual([
      'Invalid arguments for "searchCustomer": field "name" must be string.',
      'Tool "explode" failed: kaboom',
    ]);
  });

  it("a tool name offered twice is a clear error before the first model call", async () => {
    const model = mockModel(text("never"));
    const own = defineTool({ name: "findCustomers", description: "mine", execute: () => [] });
    const error = await new PromptRunner({ model })
      .withTools(own)
      .withMcpClient(await shopClient())
      .run("q")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolSourceClashError);
    expect((error as Error).message).toBe(
      'The tool "findCustomers" is offered by both the runner\'s own tools and mcp:shop: rename one of them, or give the server a prefix with withMcpClient(client, { prefix }) (a tool name must reach exactly one tool)',
    );
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("the client side's types come from entity-tools/mcp too (type checked by `npm run typecheck`)", async () => {
    const model = mockModel(text("hi"));
    const join = async (client: McpClientLike, options: McpClientOptions) =>
      new PromptRunner({ model }).withMcpClient(client, options).run("q");
    await join(await shopClient(), { prefix: "shop" });
    expect(offeredAt(model, 0)).toEqual(["shop_searchCustomer", "shop_findCustomers", "shop_explode"]);
  });
});
