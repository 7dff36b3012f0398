// A 2025-11-25 session lives on while the process changes around it: its `tools` array is read once, when
// the server is made (a change in place is not seen, not even when a schema registration binds the tools
// again), and a call still running when a registration binds them again keeps what it discovers for the
// session. Through the official SDK client, in memory.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { defineTool, LlmTool, registerToolSchemas, ToolProvider, type ToolSource } from "entity-tools";
import { createMcpServer, type McpServerOptions } from "entity-tools/mcp";

@ToolProvider()
class Parcel {
  constructor(readonly id: string) {}

  @LlmTool("Track this parcel")
  track(): string {
    return `parcel ${this.id} is in transit`;
  }
}

class Depot {
  /** What `find` waits for before it answers: the test decides when a call ends. */
  gate: Promise<void> = Promise.resolve();
  /** Told when a call of `find` has started. */
  entered: () => void = () => {};

  @LlmTool("Find a parcel by its code")
  async find(code: string): Promise<Parcel> {
    this.entered();
    await this.gate;
    return new Parcel(code);
  }
}

/** The module the schema CLI would write for Depot, its `code` described as `described`. */
function depotModule(described: string) {
  return {
    tools: {
      "Depot.find": {
        parameters: ["code"],
        inputSchema: {
          type: "object" as const,
          properties: { code: { type: "string", description: described } },
          required: ["code"],
          additionalProperties: false,
        },
      },
    },
    outputs: {},
    classes: { Depot, Parcel },
    returns: { "Depot.find": ["Parcel"] },
  };
}

registerToolSchemas(depotModule("v1"));

const late = defineTool({ name: "late", description: "Added to the array later", execute: () => "late" });

/** A connected client of a fresh server (one session) made from `tools`, and its list_changed count. */
async function session(tools: readonly ToolSource[], extra: Partial<McpServerOptions> = {}) {
  const server = createMcpServer({ name: "depot", version: "1.0.0", tools, discovery: true, ...extra });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  const told = { changes: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void told.changes++);
  await client.connect(clientSide);
  const listed = async () => (await client.listTools()).tools;
  const names = async () => (await listed()).map((t) => t.name);
  const described = async () => {
    const schema: unknown = (await listed())[0]!.inputSchema;
    return (schema as { properties: { code: { description: string } } }).properties.code.description;
  };
  return { client, told, names, described };
}

describe("a 2025-11-25 session that lives on", () => {
  it("serves the tools array as it was when the server was made, also after a registration binds them again", async () => {
    const depot = new Depot();
    const tools: ToolSource[] = [depot];
    const first = await session(tools);
    expect(await first.names()).toEqual(["find"]);

    tools.push(late); // in place: a non-event for the server already made
    expect(await first.names()).toEqual(["find"]);
    await expect(first.client.callTool({ name: "late", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool "late"'),
    });
    expect(first.told.changes).toBe(0);

    registerToolSchemas(depotModule("v2"));
    // The session's first request after the registration (an unknown tool too) announces that change.
    await expect(first.client.callTool({ name: "late", arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    expect(first.told.changes).toBe(1);
    expect(await first.described()).toBe("v2"); // the registration is read ...
    expect(await first.names()).toEqual(["find"]); // ... with the tools the server was made with

    // A server made now (the next connection, or the next HTTP request's) reads the array as it is.
    const second = await session(tools);
    expect(await second.names()).toEqual(["find", "late"]);
    expect((await second.client.callTool({ name: "late", arguments: {} })).content).toEqual([
      { type: "text", text: "late" },
    ]);
  });

  it("a call still running when a registration binds the tools again keeps its discoveries for the session", async () => {
    const depot = new Depot();
    let open!: () => void;
    depot.gate = new Promise((resolve) => (open = resolve));
    const entered = new Promise<void>((resolve) => (depot.entered = resolve));
    const { client, told, names, described } = await session([depot]);
    const running = client.callTool({ name: "find", arguments: { code: "p7" } });
    await entered;

    registerToolSchemas(depotModule("v3"));
    expect(await described()).toBe("v3"); // the session's tools are bound again while the call waits
    open();
    const found = await running;
    expect(found.isError).toBe(false);
    expect(await names()).toEqual(["find", "parcel_p7_track"]);
    expect(told.changes).toBe(1);
    const tracked = await client.callTool({ name: "parcel_p7_track", arguments: {} });
    expect(tracked.content).toEqual([{ type: "text", text: "parcel p7 is in transit" }]);
  });

  it("a call_discovered_tool call refused for its arguments still announces a registration's change", async () => {
    const { client, told, names } = await session([new Depot()], { newTools: "dispatch" });
    expect(await names()).toEqual(["find", "call_discovered_tool"]);
    registerToolSchemas(depotModule("v4"));
    const refused = await client.callTool({ name: "call_discovered_tool", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(told.changes).toBe(1);
  });
});
