// Real third-party MCP software against entity-tools on 127.0.0.1, sharing one started example server
// (both revisions) and one Mastra server: Mastra's client and the MCP Inspector CLI use our server
// (2026-07-28, discovery by handles), the official SDK v2 client checks that tools/list is the same for
// every caller, and a run uses Mastra's 2026-only server through withMcpClient.
import { execFile } from "node:child_process";
import { createServer, type Server as HttpServer } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { createTool } from "@mastra/core/tools";
import { MCPClient, MCPServer } from "@mastra/mcp";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { PromptRunner } from "entity-tools";
import { serveHttp } from "../../examples/mcp-server/server.js";
import { call, mockModel, offeredAt, text, toolResultsSeenAt } from "../support/mock-model.js";
import { tempDir } from "../support/temp-dir.js";

const run = promisify(execFile);
const inspector = path.resolve(
  "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
);
const handleIn = (content: string) => /\\?"(Customer:[^"\\]+)\\?"/.exec(content)![1]!;

let shop: Awaited<ReturnType<typeof serveHttp>>;
let mastraUrl: string;
let mastraHttp: HttpServer;
const clients: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  shop = await serveHttp(0);
  const weather = createTool({
    id: "getWeather",
    description: "The weather in a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async (input) => `Sunny in ${input.city}`,
  });
  // `protocolVersion` is documented and honoured by @mastra/mcp 2.0, but @mastra/core 1.71's config type
  // (which MCPServer's extends) does not declare it yet.
  const mastra = new MCPServer({
    id: "weather",
    name: "weather",
    version: "1.0.0",
    tools: { weather },
    protocolVersion: "2026-07-28",
  } as ConstructorParameters<typeof MCPServer>[0]);
  mastraHttp = createServer((req, res) => {
    void mastra.startHTTP({ url: new URL(req.url ?? "/", "http://127.0.0.1"), httpPath: "/mcp", req, res });
  });
  await new Promise<void>((resolve) => mastraHttp.listen(0, "127.0.0.1", resolve));
  mastraUrl = `http://127.0.0.1:${(mastraHttp.address() as { port: number }).port}/mcp`;
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await shop.close();
  mastraHttp.closeAllConnections();
  await new Promise<void>((resolve) => mastraHttp.close(() => resolve()));
});

async function sdkClient(url: string, mode: "auto" | "legacy" = "auto"): Promise<Client> {
  const client = new Client({ name: "test", version: "1.0.0" }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

describe("MCP interoperability on 127.0.0.1", () => {
  it("tools/list is identical for two SDK v2 clients and across calls that discover providers (2026-07-28)", async () => {
    const first = await sdkClient(shop.url);
    const second = await sdkClient(shop.url);
    expect(first.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const before = await first.listTools(undefined, { cacheMode: "bypass" });
    await first.callTool({ name: "findCustomers", arguments: { text: "Smith" } });
    expect(await second.listTools(undefined, { cacheMode: "bypass" })).toEqual(before);
    expect(await first.listTools(undefined, { cacheMode: "bypass" })).toEqual(before);
    expect(before.tools.map((t) => t.name)).toEqual([
      "searchCustomer",
      "findCustomers",
      "customer_getAverageSpend",
      "customer_recentOrders",
    ]);
  });

  it("Mastra's MCP client lists our tools and discovers a customer by its handle", async () => {
    const mcp = new MCPClient({ id: "interop", servers: { shop: { url: new URL(shop.url) } } });
    clients.push({ close: () => mcp.disconnect() });
    const tools = await mcp.listTools();
    expect(Object.keys(tools)).toEqual([
      "shop_searchCustomer",
      "shop_findCustomers",
      "shop_customer_getAverageSpend",
      "shop_customer_recentOrders",
    ]);
    type Executable = { execute(input: unknown, context: unknown): Promise<{ content: { text: string }[] }> };
    const found = await (tools.shop_searchCustomer as unknown as Executable).execute(
      { name: "John Smith" },
      {},
    );
    const handle = handleIn(found.content[0]!.text);
    const spend = await (tools.shop_customer_getAverageSpend as unknown as Executable).execute(
      { handle },
      {},
    );
    expect(spend.content[0]!.text).toBe('{"amount":46.83,"currency":"USD"}');
  }, 30_000);

  it("the MCP Inspector CLI lists and calls our tools on both revisions, discovery by handles included", async () => {
    const env = { ...process.env, HOME: tempDir("inspector-") };
    const cli = async (...args: string[]) =>
      JSON.parse(
        (
          await run(process.execPath, [inspector, "--cli", shop.url, "--format", "json", "-q", ...args], {
            env,
          })
        ).stdout,
      ) as {
        result: { tools?: { name: string }[]; content?: { text: string }[] };
      };
    const legacy = await cli("--method", "tools/list");
    expect(legacy.result.tools!.map((t) => t.name)).toEqual(["searchCustomer", "findCustomers"]);
    const modern = await cli("--protocol-era", "modern", "--method", "tools/list");
    expect(modern.result.tools!.map((t) => t.name)).toContain("customer_getAverageSpend");
    const found = await cli(
      "--protocol-era",
      "modern",
      "--method",
      "tools/call",
      "--tool-name",
      "searchCustomer",
      "--tool-arg",
      "name=Jane Smith",
    );
    const handle = handleIn(found.result.content![0]!.text);
    const spend = await cli(
      "--protocol-era",
      "modern",
      "--method",
      "tools/call",
      "--tool-name",
      "customer_getAverageSpend",
      "--tool-arg",
      `handle=${handle}`,
    );
    expect(spend.result.content![0]!.text).toMatch(/^\{"amount":[\d.]+,"currency":"USD"\}$/);
  }, 60_000);

  it("a run uses Mastra's 2026-only server through withMcpClient (negotiated 2026-07-28)", async () => {
    const client = await sdkClient(mastraUrl);
    const model = mockModel(call("weather", { city: "Oslo" }), text("sunny"));
    const result = await new PromptRunner({ model }).withMcpClient(client).run("Weather in Oslo?");
    expect(offeredAt(model, 0)).toEqual(["weather"]);
    expect(toolResultsSeenAt(model, 1)).toEqual(["Sunny in Oslo"]);
    expect(result.result).toBe("sunny");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  });

  it("a 2025-11-25 client is refused by Mastra's 2026-only server; our client negotiates 2026-07-28 instead", async () => {
    const error = await sdkClient(mastraUrl, "legacy").catch((e: unknown) => e);
    expect(String(error)).toContain("Unsupported protocol version: 2025-11-25");
  });
});
