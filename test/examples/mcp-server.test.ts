// The example MCP server with the SDK's own client: over stdio (spawned as a user's MCP client config
// would) and over Streamable HTTP on 127.0.0.1, where each session is its own scope.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serveHttp } from "../../examples/mcp-server/server.js";
import { corsHeaders, rawRequest } from "../support/raw-http.js";
import { tempDir } from "../support/temp-dir.js";

async function discover(client: Client): Promise<{ announced: boolean; tools: string[]; spend: unknown }> {
  let announced = false;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (announced = true));
  await client.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } });
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const spend = await client.callTool({ name: "customer_c123_getAverageSpend", arguments: {} });
  return { announced, tools, spend: spend.content };
}

describe("examples/mcp-server", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it("over stdio: discovery, list_changed, and the discovered tool callable", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", "examples/mcp-server/server.ts"],
        stderr: "ignore",
      }),
    );
    closers.push(() => client.close());
    const seen = await discover(client);
    expect(seen.announced).toBe(true);
    expect(seen.tools).toContain("customer_c123_getAverageSpend");
    expect(seen.spend).toEqual([{ type: "text", text: '{"amount":46.83,"currency":"USD"}' }]);
  }, 60_000);

  it("over Streamable HTTP: two sessions, each with its own discoveries", async () => {
    const { url, close } = await serveHttp(0);
    closers.push(close);
    const first = new Client({ name: "a", version: "1.0.0" });
    const second = new Client({ name: "b", version: "1.0.0" });
    await first.connect(new StreamableHTTPClientTransport(new URL(url)));
    await second.connect(new StreamableHTTPClientTransport(new URL(url)));
    closers.unshift(
      () => first.close(),
      () => second.close(),
    );
    const seen = await discover(first);
    expect(seen.tools).toContain("customer_c123_recentOrders");
    expect(seen.spend).toEqual([{ type: "text", text: '{"amount":46.83,"currency":"USD"}' }]);
    expect((await second.listTools()).tools.map((t) => t.name)).toEqual(["searchCustomer", "findCustomers"]);
  });

  it("over Streamable HTTP: an unknown session id is answered 404, as the spec says", async () => {
    const { url, close } = await serveHttp(0);
    closers.push(close);
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": "no-such-session",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(404);
    // A request that is no initialize and names no session: 400, saying what is missing (P08).
    const sessionless = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect([sessionless.status, await sessionless.json()]).toEqual([
      400,
      {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Bad Request: Mcp-Session-Id header is required" },
        id: null,
      },
    ]);
  });

  it("over Streamable HTTP: a legacy session unused past sessionIdleMs is closed", async () => {
    const served = await serveHttp(0, { sessionIdleMs: 40 });
    closers.push(served.close);
    const client = new Client({ name: "idle", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    expect(served.sessions()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(served.sessions()).toBe(0);
    expect(await client.listTools().catch((e: unknown) => String(e))).toMatch(/404|Session not found/);
  });

  it("over Streamable HTTP: past maxSessions, a new session closes the least recently used one (404 to its client), not the others", async () => {
    const served = await serveHttp(0, { maxSessions: 2 });
    closers.push(served.close);
    const connect = async () => {
      const client = new Client({ name: "many", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      closers.unshift(() => client.close());
      return client;
    };
    const oldest = await connect();
    const used = await connect();
    await oldest.listTools();
    await used.callTool({ name: "searchCustomer", arguments: { name: "John Smith" } }); // used last
    const newest = await connect();
    expect(served.sessions()).toBe(2);
    expect(await oldest.listTools().catch((e: unknown) => String(e))).toMatch(/404|Session not found/);
    expect((await used.listTools()).tools.map((t) => t.name)).toContain("customer_c123_getAverageSpend");
    expect((await newest.listTools()).tools.map((t) => t.name)).toEqual(["searchCustomer", "findCustomers"]);
  });

  it("starts when launched through a symlink", async () => {
    const link = path.join(tempDir("mcp-link-"), "shop-server.ts");
    symlinkSync(path.resolve("examples/mcp-server/server.ts"), link);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", link],
        stderr: "ignore",
      }),
    );
    closers.push(() => client.close());
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["searchCustomer", "findCustomers"]);
  }, 60_000);

  it("over Streamable HTTP: a rebinding page's initialize (Host or Origin evil.example) is refused 403; the right host, or an allowed name, gets 200; no CORS headers", async () => {
    const { url, close, sessions } = await serveHttp(0, { allowedHosts: ["mcp.internal"] });
    closers.push(close);
    const initialize = (headers: Readonly<Record<string, string | undefined>>) =>
      rawRequest(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "rebinding-page", version: "1.0.0" },
          },
        }),
      });
    const port = new URL(url).port;
    for (const headers of [
      { host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
      { host: `evil.example:${port}` },
      { origin: "http://evil.example" },
    ]) {
      const refused = await initialize(headers);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
      expect(refused.body).toMatch(/Invalid (Host|Origin): evil\.example/);
      expect(corsHeaders(refused)).toEqual([]);
    }
    const preflight = await rawRequest(url, {
      method: "OPTIONS",
      headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(403);
    expect(corsHeaders(preflight)).toEqual([]);
    expect(sessions()).toBe(0); // nothing reached the server
    for (const headers of [{}, { host: `mcp.internal:${port}`, origin: "http://localhost:6274" }]) {
      const answered = await initialize(headers);
      expect(answered.status).toBe(200);
      expect(answered.body).toContain('"serverInfo":{"name":"shop"');
      expect(corsHeaders(answered)).toEqual([]);
    }
  });
});
