// createMcpServer against clients that misbehave (docs/reliability.md, P01–P06): raw HTTP against the SDK
// v2's entry on 127.0.0.1 (2026-07-28), and SDK v1 sessions in memory (2025-11-25, as over stdio). The
// server never crashes or hangs, the client reads a clear error, and the next request is served.
import "../fixtures/store/register.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "entity-tools";
import { createMcpServer, type McpServerOptions } from "entity-tools/mcp";

/** Each call of `waiting` that started: the reason its signal gave when it aborted. */
const calls: { aborted: Promise<unknown> }[] = [];
const waiting = defineTool({
  name: "waiting",
  description: "Runs until its call is stopped",
  execute: (_input: Record<string, never>, { signal }) => {
    let aborted!: (reason: unknown) => void;
    calls.push({ aborted: new Promise((resolve) => (aborted = resolve)) });
    return new Promise<never>((_resolve, reject) =>
      signal.addEventListener("abort", () => {
        aborted(signal.reason);
        reject(new Error("stopped"));
      }),
    );
  },
});
const measure = defineTool({
  name: "measure",
  description: "The length of a text",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }: { text: string }) => text.length,
});
const options: McpServerOptions = { name: "shop", version: "1.0.0", tools: [waiting, measure] };

/** The call of `waiting` numbered `count` (from 0), once it started. */
async function nextCall(count: number) {
  while (calls.length <= count) await new Promise((resolve) => setImmediate(resolve));
  return calls[count]!;
}

describe("createMcpServer over HTTP (2026-07-28): misbehaving clients", () => {
  let url = "";
  let close = async () => {};
  beforeAll(async () => {
    const handler = toNodeHandler(createMcpHandler(() => createMcpServer(options)));
    const http = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    close = () => {
      http.closeAllConnections();
      return new Promise<void>((resolve) => http.close(() => resolve()));
    };
  });
  afterAll(() => close());

  const envelope = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  /** A tools/call as a 2026-07-28 client sends it, with `body` and headers changed as given. */
  const post = async (
    name: string,
    args: unknown,
    change: { body?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ) => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": name,
        ...change.headers,
      },
      body:
        change.body ??
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name, arguments: args, _meta: envelope },
        }),
      signal: change.signal ?? null,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const measured = async () => (await post("measure", { text: "abc" })).body.result;

  it("P01: a client that aborts its HTTP request mid-call stops the tool (its signal fires); the next call is served", async () => {
    const stop = new AbortController();
    const pending = post("waiting", {}, { signal: stop.signal }).catch((e: unknown) => (e as Error).name);
    const call = await nextCall(calls.length);
    stop.abort();
    expect(await pending).toBe("AbortError");
    expect(await call.aborted).toBeDefined();
    expect(await measured()).toMatchObject({ content: [{ type: "text", text: "3" }], isError: false });
  });

  it("P02: arguments that are no object, an unknown tool: Invalid params (-32602) saying why; nothing runs", async () => {
    for (const args of [[1, 2], "text", null]) {
      const { status, body } = await post("measure", args);
      expect(status).toBe(200);
      expect(body.error).toMatchObject({ code: -32602, message: expect.stringContaining("arguments") });
    }
    const unknown = await post("nope", {});
    expect(unknown.body.error).toMatchObject({
      code: -32602,
      message: 'Unknown tool "nope". Available tools: waiting, measure.',
    });
    expect(await measured()).toMatchObject({ isError: false });
  });

  it("P03: a 10 MB argument, malformed JSON, a batch, a protocol version header the body contradicts: 4xx with a JSON-RPC error", async () => {
    const huge = await post("measure", { text: "x".repeat(10_000_000) });
    expect([huge.status, huge.body.error]).toEqual([
      413,
      { code: -32000, message: "Payload Too Large: Request body must not exceed 4194304 bytes" },
    ]);
    const malformed = await post("measure", {}, { body: "{not json" });
    expect([malformed.status, malformed.body.error]).toEqual([
      400,
      { code: -32700, message: "Parse error: Invalid JSON" },
    ]);
    const one = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "measure", arguments: { text: "a" }, _meta: envelope },
    };
    const batch = await post("measure", {}, { body: JSON.stringify([one, { ...one, id: 2 }]) });
    expect([batch.status, batch.body.error]).toMatchObject([400, { code: -32600 }]);
    const version = await post(
      "measure",
      { text: "a" },
      { headers: { "mcp-protocol-version": "1999-01-01" } },
    );
    expect(version.status).toBe(400);
    expect(version.body.error).toMatchObject({ message: expect.stringContaining("1999-01-01") });
    expect(await measured()).toMatchObject({ isError: false });
  });
});

describe("createMcpServer in a 2025-11-25 session: misbehaving clients", () => {
  async function session() {
    const server = createMcpServer(options);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    return client;
  }

  it("P04: notifications/cancelled for a running call reaches the tool (its signal fires with the client's reason)", async () => {
    const client = await session();
    const stop = new AbortController();
    const pending = client.callTool({ name: "waiting", arguments: {} }, undefined, { signal: stop.signal });
    const call = await nextCall(calls.length);
    stop.abort("the person stopped it");
    await expect(pending).rejects.toThrow("the person stopped it");
    expect(await call.aborted).toBe("the person stopped it");
    expect((await client.callTool({ name: "measure", arguments: { text: "ab" } })).isError).toBe(false);
  });

  it("P05: a client that closes its session mid-call stops the tool; another session is served", async () => {
    const leaving = await session();
    const staying = await session();
    const pending = leaving.callTool({ name: "waiting", arguments: {} }).catch((e: unknown) => String(e));
    const call = await nextCall(calls.length);
    await leaving.close();
    expect(await pending).toMatch(/Connection closed/);
    expect(String(await call.aborted)).toMatch(/Connection closed/);
    expect((await staying.callTool({ name: "measure", arguments: { text: "ab" } })).content).toEqual([
      { type: "text", text: "2" },
    ]);
  });

  it("P06: a 10 MB argument in a session (no HTTP limit, as over stdio) is served", async () => {
    const client = await session();
    const result = await client.callTool({ name: "measure", arguments: { text: "x".repeat(10_000_000) } });
    expect(result.content).toEqual([{ type: "text", text: "10000000" }]);
  });
});
