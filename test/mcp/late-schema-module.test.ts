// A schema module registered after a server was made is read at that server's next request: the schemas
// it changes, and the provider classes it says the tools return (the 2026-07-28 handle tools); a server
// that lives on (a 2025-11-25 session) tells its client its list changed. Nothing is made again while no
// module is registered.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { LlmTool, registerToolSchemas, ToolProvider } from "entity-tools";
import { createMcpServer, type McpServerOptions } from "entity-tools/mcp";
import { countingTool } from "../support/counting-tools.js";
import { modernEndpoint } from "../support/mcp-v2.js";

@ToolProvider()
class LateTicket {
  constructor(readonly id: string) {}

  @LlmTool("Close this ticket")
  close(): string {
    return `closed ${this.id}`;
  }
}

class LateDesk {
  @LlmTool("Open a ticket")
  open(title: string): LateTicket {
    return new LateTicket(`t-${title.length}`);
  }
}

/** The module the schema CLI would write for LateDesk, its title described as `title`. */
function deskModule(title: string, returns?: Record<string, readonly string[]>) {
  return {
    tools: {
      "LateDesk.open": {
        parameters: ["title"],
        inputSchema: {
          type: "object" as const,
          properties: { title: { type: "string", description: title } },
          required: ["title"],
          additionalProperties: false,
        },
      },
    },
    outputs: {},
    classes: { LateDesk, LateTicket },
    ...(returns ? { returns } : {}),
  };
}

registerToolSchemas(deskModule("v1"));

describe("a schema module registered after a server was made", () => {
  it("is read at the next request, by a server per request and by a session that lives on", async () => {
    const { tool: watched, counts } = countingTool();
    const options: McpServerOptions = {
      name: "desk",
      version: "1.0.0",
      tools: [new LateDesk(), watched],
      discovery: true,
      resolveProvider: (_cls, id) => new LateTicket(String(id)),
    };
    const modern = await modernEndpoint(options).connect();
    const modernList = async () => (await modern.listTools(undefined, { cacheMode: "bypass" })).tools;
    const server = createMcpServer(options);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const legacy = new Client({ name: "test", version: "1.0.0" });
    let changes = 0;
    legacy.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    await legacy.connect(clientSide);
    const legacyList = async () => (await legacy.listTools()).tools;
    const titleOf = (tools: { inputSchema: unknown }[]) =>
      (tools[0]!.inputSchema as { properties: { title: { description: string } } }).properties.title
        .description;

    expect((await modernList()).map((t) => t.name)).toEqual(["open", "watched"]);
    expect(titleOf(await modernList())).toBe("v1");
    expect(titleOf(await legacyList())).toBe("v1");
    await legacyList();
    const unchanged = counts.registered;

    registerToolSchemas(deskModule("v2", { "LateDesk.open": ["LateTicket"] }));
    const listed = await modernList();
    expect(listed.map((t) => t.name)).toEqual(["open", "watched", "lateticket_close"]);
    expect(titleOf(listed)).toBe("v2");
    const opened = await modern.callTool({ name: "open", arguments: { title: "broken" } });
    const handle = /"(LateTicket:[^"]+)"/.exec((opened.content as { text: string }[])[0]!.text)![1]!;
    const closed = await modern.callTool({ name: "lateticket_close", arguments: { handle } });
    expect((closed.content as { text: string }[])[0]!.text).toBe("closed t-6");
    expect(titleOf(await legacyList())).toBe("v2");
    const remade = counts.registered;
    expect(remade).toBeGreaterThan(unchanged);
    await modernList();
    await legacyList();
    expect(counts.registered).toBe(remade);

    // A session's call is its next request too: it announces the change (the call discovers nothing).
    registerToolSchemas(deskModule("v3", { "LateDesk.open": ["LateTicket"] }));
    expect(changes).toBe(0);
    expect((await legacy.callTool({ name: "watched", arguments: {} })).isError).toBe(false);
    expect(changes).toBe(1);
    expect(titleOf(await legacyList())).toBe("v3");
  });
});
