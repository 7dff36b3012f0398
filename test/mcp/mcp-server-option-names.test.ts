// createMcpServer's options named as the runner names the same concepts (docs/glossary.md): toolMiddleware,
// injectionStrategies, newTools. The older names (middleware, strategies, dispatch) still work, deprecated.
import "../fixtures/store/register.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { InvalidSettingError, type ToolInjectionStrategy, type ToolMiddleware } from "entity-tools";
import { createMcpServer, type McpServerOptions } from "entity-tools/mcp";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";

const options = (more: Partial<McpServerOptions>): McpServerOptions => ({
  name: "shop",
  version: "1.0.0",
  tools: [new CustomerSearchTools()],
  discovery: true,
  ...more,
});

/** A client of a fresh server (2025-11-25: the legacy session, where newTools matters). */
async function connect(more: Partial<McpServerOptions>) {
  const server = createMcpServer(options(more));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  const names = async () => (await client.listTools()).tools.map((t) => t.name);
  const search = async () =>
    (
      (await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } })).content as {
        text: string;
      }[]
    )[0]!.text;
  return { names, search };
}

const tagging =
  (tag: string, seen: string[]): ToolMiddleware =>
  async (call, next) => {
    seen.push(`${tag}:${call.tool.name}`);
    return next();
  };
const noting = (tag: string, seen: string[]): ToolInjectionStrategy => ({
  evaluateToolResult: ({ lastToolCall }) => (seen.push(`${tag}:${lastToolCall.toolName}`), {}),
});

describe("createMcpServer option names", () => {
  it('newTools: "dispatch" offers call_discovered_tool, as the deprecated dispatch: true does', async () => {
    expect(await (await connect({ newTools: "dispatch" })).names()).toContain("call_discovered_tool");
    expect(await (await connect({ dispatch: true })).names()).toContain("call_discovered_tool");
    expect(await (await connect({ newTools: "dynamic" })).names()).not.toContain("call_discovered_tool");
    expect(await (await connect({})).names()).not.toContain("call_discovered_tool");
  });

  it("toolMiddleware and injectionStrategies run; the deprecated names' entries run after them", async () => {
    const seen: string[] = [];
    const { search } = await connect({
      toolMiddleware: [tagging("toolMiddleware", seen)],
      middleware: [tagging("middleware", seen)],
      injectionStrategies: [noting("injectionStrategies", seen)],
      strategies: [noting("strategies", seen)],
    });
    expect(await search()).toContain("John Smith");
    expect(seen).toEqual([
      "toolMiddleware:searchCustomer",
      "middleware:searchCustomer",
      "injectionStrategies:searchCustomer",
      "strategies:searchCustomer",
    ]);
  });

  it("refuses a new-tools mode a server does not have, or one dispatch contradicts, naming the option", () => {
    const restart = { newTools: "restart" } as unknown as Partial<McpServerOptions>;
    expect(() => createMcpServer(options(restart))).toThrow(InvalidSettingError);
    expect(() => createMcpServer(options(restart))).toThrow(/^newTools must be "dynamic" or "dispatch"/);
    expect(() => createMcpServer(options({ newTools: "dispatch", dispatch: false }))).toThrow(
      /^dispatch must be/,
    );
  });

  it("reports a bad limit under the option's own name", () => {
    expect(() => createMcpServer(options({ toolTimeoutMs: 0 }))).toThrow(/^toolTimeoutMs must be/);
    expect(() => createMcpServer(options({ maxInjectedTools: -1 }))).toThrow(/^maxInjectedTools must be/);
  });
});
