// createMcpServer through the official SDK client, in memory: discovery, list_changed, isolation, errors.
import "../fixtures/store/register.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { defineTool, type ToolFailedEvent, type ToolLoopEvent } from "entity-tools";
import { createMcpServer, type McpServerOptions } from "entity-tools/mcp";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { LineItem, Order } from "../fixtures/store/order.js";

const failing = defineTool({
  name: "explode",
  description: "Always fails",
  execute: () => {
    throw new Error("kaboom");
  },
});
const slow = defineTool({
  name: "slow",
  description: "Never finishes",
  execute: () => new Promise(() => {}),
});

/** A connected client of a fresh server (one session), and the list_changed notifications it got. */
async function session(options: Partial<McpServerOptions> = {}) {
  const server = createMcpServer({
    name: "shop",
    version: "1.0.0",
    tools: [new CustomerSearchTools(), failing, slow],
    discovery: true,
    ...options,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  const changes: number[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes.push(Date.now()));
  await client.connect(clientSide);
  const names = async () => (await client.listTools()).tools.map((t) => t.name);
  const text = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text;
  return { client, server, changes, names, text };
}

describe("createMcpServer", () => {
  it("offers the configured tools with their JSON Schemas", async () => {
    const { client } = await session();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["searchCustomer", "findCustomers", "explode", "slow"]);
    expect(tools[0]!.inputSchema).toMatchObject({
      type: "object",
      properties: { name: { type: "string", description: "The customer's full name" } },
      required: ["name"],
    });
  });

  it("a call that returns a provider binds its tools for this session, announces list_changed, and they work", async () => {
    const { client, changes, names, text } = await session();
    const found = await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } });
    expect(found.isError).toBe(false);
    expect(JSON.parse(text(found))).toEqual({ id: "c123", name: "John Smith", email: "john@example.com" });
    expect(changes).toHaveLength(1);
    expect(await names()).toContain("customer_c123_getAverageSpend");
    const spend = await client.callTool({ name: "customer_c123_getAverageSpend", arguments: {} });
    expect(text(spend)).toBe('{"amount":46.83,"currency":"USD"}');
    expect(changes).toHaveLength(1); // nothing new: no announcement
  });

  it("sessions are isolated: one session's discoveries are not another's", async () => {
    const first = await session();
    const second = await session();
    await first.client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } });
    expect(await first.names()).toContain("customer_c123_recentOrders");
    expect(await second.names()).not.toContain("customer_c123_recentOrders");
    // The spec's protocol error for an unknown tool: Invalid params, naming what this session has.
    await expect(
      second.client.callTool({ name: "customer_c123_getAverageSpend", arguments: {} }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool "customer_c123_getAverageSpend"'),
    });
    expect(await first.names()).toContain("customer_c123_getAverageSpend"); // the first session's stay
  });

  it("budget evictions are announced too", async () => {
    const { client, changes, names } = await session({ maxInjectedTools: 2 });
    await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } });
    await client.callTool({ name: "searchCustomer", arguments: { name: "Jane Smith" } });
    expect(changes).toHaveLength(2);
    const offered = await names();
    expect(offered.filter((n) => n.startsWith("customer_"))).toEqual([
      "customer_c456_getAverageSpend",
      "customer_c456_recentOrders",
    ]);
  });

  it("bad input gets a JSON-RPC error (an unknown tool) or an isError result with the reason, and the server goes on", async () => {
    const { client, text } = await session();
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Unknown tool "nope"\. Available tools: searchCustomer/),
    });
    const wrong = await client.callTool({ name: "searchCustomer", arguments: { name: 7 } });
    expect(text(wrong)).toBe('Invalid arguments for "searchCustomer": field "name" must be string.');
    const thrown = await client.callTool({ name: "explode", arguments: {} });
    expect([thrown.isError, text(thrown)]).toEqual([true, 'Tool "explode" failed: kaboom']);
    await expect(client.listTools({ cursor: "page-2" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Invalid cursor"),
    });
    const fine = await client.callTool({ name: "findCustomers", arguments: { text: "Khan" } });
    expect(fine.isError).toBe(false);
  });

  it("P13 a tool that throws (or rejects with) undefined, a symbol or a function: an isError result that says what was thrown (was: that the tool returned nothing), and the server goes on", async () => {
    const throwing = (name: string, thrown: () => unknown) =>
      defineTool({ name, description: name, execute: thrown });
    const { client, text } = await session({
      tools: [
        throwing("throwsUndefined", () => {
          throw undefined;
        }),
        throwing("rejectsSymbol", () => Promise.reject(Symbol("lost connection"))),
        throwing("throwsFunction", () => {
          throw () => 1;
        }),
        new CustomerSearchTools(),
      ],
    });
    const results = [];
    for (const name of ["throwsUndefined", "rejectsSymbol", "throwsFunction"]) {
      const result = await client.callTool({ name, arguments: {} });
      results.push([result.isError, text(result)]);
    }
    expect(results).toEqual([
      [true, 'Tool "throwsUndefined" failed: undefined'],
      [true, 'Tool "rejectsSymbol" failed: Symbol(lost connection)'],
      [true, 'Tool "throwsFunction" failed: a function'],
    ]);
    const fine = await client.callTool({ name: "findCustomers", arguments: { text: "Khan" } });
    expect(fine.isError).toBe(false);
  });

  it("a session that disconnects mid-call does not stop the server serving other sessions", async () => {
    const leaving = await session();
    const staying = await session();
    const pending = leaving.client.callTool({ name: "slow", arguments: {} }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await leaving.client.close();
    expect(await pending).toBeInstanceOf(Error);
    const result = await staying.client.callTool({ name: "findCustomers", arguments: { text: "Smith" } });
    expect(result.isError).toBe(false);
  });

  it("reports calls and discoveries to its observers, as a run does", async () => {
    const events: ToolLoopEvent[] = [];
    const { client } = await session({ observers: [(e) => events.push(e)] });
    await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } });
    expect(events.map((e) => e.type)).toEqual([
      "ToolCallStarted",
      "ToolProviderDiscovered",
      "ToolsInjected",
      "ToolInvoked",
    ]);
  });

  it("a call the client cancels, or whose strategy fails, ends for observers too (ToolFailed), with the reason and what was thrown", async () => {
    const events: ToolLoopEvent[] = [];
    const waiting = new Map<string, () => void>();
    const observe = (e: ToolLoopEvent) => {
      events.push(e);
      waiting.get(e.type)?.();
    };
    const seen = (type: ToolLoopEvent["type"]) =>
      events.some((e) => e.type === type)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.set(type, resolve));
    const { client } = await session({ observers: [observe] });
    const stop = new AbortController();
    const cancelled = client.callTool({ name: "slow", arguments: {} }, undefined, { signal: stop.signal });
    await seen("ToolCallStarted");
    stop.abort("the person stopped it");
    await expect(cancelled).rejects.toThrow();
    await seen("ToolFailed");
    expect(events.map((e) => [e.type, "reason" in e ? e.reason : undefined])).toEqual([
      ["ToolCallStarted", undefined],
      ["ToolFailed", "cancelled"],
    ]);

    events.length = 0;
    const broken = await session({
      discovery: false,
      observers: [(e) => events.push(e)],
      injectionStrategies: [
        {
          evaluateToolResult: () => {
            throw new Error("the strategy broke");
          },
        },
      ],
    });
    const result = await broken.client.callTool({ name: "findCustomers", arguments: { text: "Khan" } });
    // The strategy's message may hold anything: the client reads that the call failed, observers why.
    expect([result.isError, broken.text(result)]).toEqual([
      true,
      'The call of "findCustomers" failed in the server',
    ]);
    expect(events.map((e) => [e.type, "reason" in e ? e.reason : undefined])).toEqual([
      ["ToolCallStarted", undefined],
      ["ToolFailed", "threw"],
    ]);
    const failure = events[1] as ToolFailedEvent;
    expect((failure.cause as Error).message).toBe(
      'An injection strategy failed after "findCustomers": the strategy broke',
    );
  });

  it("a strategy that throws after discovery: the call is an isError result, and the providers it found stay in the session, announced", async () => {
    const throwing: Partial<McpServerOptions> = {
      injectionStrategies: [
        {
          evaluateToolResult: ({ lastToolCall }) => {
            if (lastToolCall.toolName === "searchCustomer") throw new Error("the audit strategy broke");
            return {};
          },
        },
      ],
    };
    const { client, changes, names, text } = await session(throwing);
    const found = await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } });
    expect([found.isError, text(found)]).toEqual([true, 'The call of "searchCustomer" failed in the server']);
    // What the tool returned is real (it ran): its providers' tools are kept, and the client is told.
    expect(changes).toHaveLength(1);
    expect(await names()).toContain("customer_c123_getAverageSpend");
    const spend = await client.callTool({ name: "customer_c123_getAverageSpend", arguments: {} });
    expect([spend.isError, text(spend)]).toEqual([false, '{"amount":46.83,"currency":"USD"}']);
    // With dispatch, the failed call's result describes them, as any result that discovered tools does.
    const dispatching = await session({ ...throwing, dispatch: true });
    const viaDispatch = await dispatching.client.callTool({
      name: "searchCustomer",
      arguments: { name: "John Smith" },
    });
    expect(dispatching.text(viaDispatch)).toMatch(
      /^The call of "searchCustomer" failed in the server\n\nNew tools are available through call_discovered_tool .*\n- customer_c123_getAverageSpend: /s,
    );
  });

  it("dispatch: call_discovered_tool reaches discovered tools, which the result that found them describes", async () => {
    const { client, text } = await session({ dispatch: true });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("call_discovered_tool");
    const found = text(await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } }));
    expect(found).toContain(
      "New tools are available through call_discovered_tool (pass tool_name and arguments):",
    );
    expect(found).toContain("- customer_c123_getAverageSpend: Get this customer's average monthly spend");
    const spend = await client.callTool({
      name: "call_discovered_tool",
      arguments: { tool_name: "customer_c123_getAverageSpend", arguments: {} },
    });
    expect(text(spend)).toBe('{"amount":46.83,"currency":"USD"}');
  });

  it("dispatch: a result holding two instances of one order describes its tools once, bound to the first", async () => {
    const order = (unitPrice: number) =>
      new Order("o-9", "c1", new Date(0), [new LineItem("KB-01", "Keyboard", 1, unitPrice)]);
    const twice = defineTool({
      name: "orders",
      description: "Orders",
      execute: () => [order(10), order(30)],
    });
    const discovered: ToolLoopEvent[] = [];
    const { client, text } = await session({
      dispatch: true,
      tools: [twice],
      observers: [(e) => void (e.type === "ToolProviderDiscovered" && discovered.push(e))],
    });
    const found = text(await client.callTool({ name: "orders", arguments: {} }));
    expect(found.match(/- order_o-9_getTotal:/g)).toHaveLength(1);
    expect(found).toContain(
      "Order o-9 is in this result more than once: its tools work on its first instance",
    );
    expect(discovered).toMatchObject([{ instanceId: "o-9", replacedEarlierInstance: false }]);
    const total = await client.callTool({
      name: "call_discovered_tool",
      arguments: { tool_name: "order_o-9_getTotal", arguments: {} },
    });
    expect(text(total)).toBe('{"amount":10,"currency":"USD"}');
  });

  it("dispatch: a call_discovered_tool call that names no tool gets an isError result saying what is wrong with it", async () => {
    const { client, text } = await session({ dispatch: true });
    const viaDispatcher = async (args: Record<string, unknown>) => {
      const result = await client.callTool({ name: "call_discovered_tool", arguments: args });
      return [result.isError, text(result)];
    };
    expect(await viaDispatcher({})).toEqual([
      true,
      'Invalid arguments for "call_discovered_tool": missing required field "tool_name".',
    ]);
    expect(await viaDispatcher({ tool_name: "findCustomers", arguments: "Khan" })).toEqual([
      true,
      'Invalid arguments for "call_discovered_tool": field "arguments" must be object.',
    ]);
    expect(await viaDispatcher({ tool_name: "call_discovered_tool", arguments: {} })).toEqual([
      true,
      'Invalid arguments for "call_discovered_tool": "tool_name" names a discovered tool, not call_discovered_tool itself.',
    ]);
    // The dispatcher is a tool the client has: a name it is passed is its argument, answered as a result.
    const [unknown, said] = await viaDispatcher({ tool_name: "nope", arguments: {} });
    expect([unknown, said]).toEqual([true, expect.stringMatching(/^Unknown tool "nope"\./)]);
    expect(await viaDispatcher({ tool_name: "findCustomers", arguments: { text: "Khan" } })).toEqual([
      false,
      expect.stringContaining("Khan"),
    ]);
  });

  it("a server connected again after its client left lists its configured tools (only discoveries go)", async () => {
    const { client, server, names } = await session();
    await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } });
    expect(await names()).toContain("customer_c123_getAverageSpend");
    await client.close();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const again = new Client({ name: "again", version: "1.0.0" });
    await again.connect(clientSide);
    expect((await again.listTools()).tools.map((t) => t.name)).toEqual([
      "searchCustomer",
      "findCustomers",
      "explode",
      "slow",
    ]);
  });

  it("an application's own onclose does not keep a closed session's providers", async () => {
    const { client, server } = await session();
    let closed = 0;
    server.onclose = () => void closed++;
    await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } });
    await client.close();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const again = new Client({ name: "again", version: "1.0.0" });
    await again.connect(clientSide);
    expect((await again.listTools()).tools.map((t) => t.name)).not.toContain("customer_c123_getAverageSpend");
    expect(closed).toBe(1);
  });

  it("dispatch: two concurrent calls each describe only the tools they discovered", async () => {
    const search = new CustomerSearchTools();
    const delayed = defineTool({
      name: "slowSearch",
      description: "Finds a customer after a while",
      inputSchema: {
        type: "object",
        properties: { name: { type: "string" }, ms: { type: "number" } },
        required: ["name", "ms"],
        additionalProperties: false,
      },
      execute: async ({ name, ms }: { name: string; ms: number }) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return search.searchCustomer(name);
      },
    });
    const { client, text } = await session({ dispatch: true, tools: [delayed] });
    const [john, jane] = await Promise.all([
      client.callTool({ name: "slowSearch", arguments: { name: "John Smith", ms: 60 } }),
      client.callTool({ name: "slowSearch", arguments: { name: "Jane Smith", ms: 5 } }),
    ]);
    expect(text(john)).toContain("customer_c123_getAverageSpend");
    expect(text(john)).not.toContain("customer_c456");
    expect(text(jane)).toContain("customer_c456_getAverageSpend");
    expect(text(jane)).not.toContain("customer_c123");
  });
});
