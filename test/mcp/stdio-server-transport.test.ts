// `McpStdioServerTransport` from `entity-tools/mcp`, given to the SDK's `serveStdio` as a user does: with the
// official SDK clients (v1 and v2) over a child process's pipes, and line by line in process. A line it
// cannot serve is answered, and the connection goes on (docs/reliability.md, hardening round 10).
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioClientTransportV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioClientTransportV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { PassThrough, type Stream } from "node:stream";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpServer, McpStdioServerTransport } from "entity-tools/mcp";
import { bundledScript } from "../support/bundled-script.js";
import { measuringTool } from "../support/mcp-batches.js";

/** The child's limit: the most bytes one line may have. */
const MAX_LINE = 65_536;
/** How to start the child (bundled once for the file: support/bundled-script.ts). */
const child = async () => ({
  command: process.execPath,
  args: [await bundledScript("test/mcp/support/stdio-server-child.ts"), String(MAX_LINE)],
  stderr: "pipe" as const,
});

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Resolves once `ready()` holds, checked each turn of the event loop (what it waits for happens on its own). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setImmediate(resolve));
}

/** What the child wrote to stderr so far. */
function told(stream: Stream | null): () => string {
  let text = "";
  stream?.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return () => text;
}

/** A client of each official SDK, connected to the child: what it calls through, and the child's stderr. */
const clients: Record<
  string,
  () => Promise<{
    callTool: (params: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>;
    stderr: () => string;
  }>
> = {
  "the SDK v1 client": async () => {
    const transport = new StdioClientTransportV1(await child());
    const stderr = told(transport.stderr);
    const client = new ClientV1({ name: "v1", version: "1.0.0" });
    await client.connect(transport);
    closers.push(() => client.close());
    return { callTool: (params) => client.callTool(params), stderr };
  },
  "the SDK v2 client": async () => {
    const transport = new StdioClientTransportV2(await child());
    const stderr = told(transport.stderr);
    const client = new ClientV2({ name: "v2", version: "1.0.0" });
    await client.connect(transport);
    closers.push(() => client.close());
    return { callTool: (params) => client.callTool(params), stderr };
  },
};

describe("McpStdioServerTransport with the official SDK clients (a child process)", () => {
  for (const [name, connect] of Object.entries(clients))
    it(`${name}: a call longer than maxBufferSize fails at once with -32600 and does not run; the next call is served`, async () => {
      const { callTool, stderr } = await connect();
      const failed = await callTool({ name: "measure", arguments: { text: "x".repeat(100_000) } }).then(
        () => "resolved",
        ({ code, message }: { code?: unknown; message?: unknown }) => ({ code, message }),
      );
      expect(failed).toEqual({
        code: -32600,
        message: expect.stringMatching(
          /Invalid Request: the message is \d{6} bytes long, more than the 65536 this server reads in one line: it was not read$/,
        ),
      });
      expect(await callTool({ name: "measure", arguments: { text: "abcd" } })).toMatchObject({
        content: [{ type: "text", text: "4" }],
      });
      await until(() => stderr().includes("measured 4"));
      // The long call did not run: the only call measured is the short one.
      expect(stderr().trim().split("\n")).toEqual([
        expect.stringMatching(
          /^MCP stdio: a line of stdin \(\d{6} bytes\) was not served, answered -32600 Invalid Request: .* \(request ids \d+\)$/,
        ),
        "measured 4",
      ]);
    }, 60_000);
});

const { tool: measure } = measuringTool();

/** `serveStdio` with the transport over in-process pipes, a 2025-11-25 session opened: its ends. */
async function inProcess(maxBufferSize?: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const transport = new McpStdioServerTransport(stdin, stdout, { maxBufferSize, stderr });
  const served = serveStdio(() => createMcpServer({ name: "lines", version: "1.0.0", tools: [measure] }), {
    transport,
  });
  closers.push(() => served.close());
  const lines = createInterface({ input: stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<unknown> => JSON.parse((await lines.next()).value as string);
  const said = told(stderr);
  stdin.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } } })}\n`,
  );
  expect(await next()).toMatchObject({ id: 0, result: { protocolVersion: "2025-11-25" } });
  stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return { stdin, next, stderr: said };
}

const call = (id: number | string, text: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "measure", arguments: { text } },
  });

describe("McpStdioServerTransport line by line (in process)", () => {
  it("a message split over chunks, one ending in \\r\\n, two in one chunk: each served once", async () => {
    const { stdin, next } = await inProcess();
    const first = call(1, "ab");
    stdin.write(first.slice(0, 10));
    stdin.write(first.slice(10));
    stdin.write(`\r\n${call(2, "abc")}\n${call(3, "abcd")}\n`);
    expect([await next(), await next(), await next()]).toMatchObject([
      { id: 1, result: { content: [{ text: "2" }] } },
      { id: 2, result: { content: [{ text: "3" }] } },
      { id: 3, result: { content: [{ text: "4" }] } },
    ]);
  });

  it("a line that is not JSON, and JSON that is no message: answered -32700 without id, -32600 to its id; nothing runs", async () => {
    const { stdin, next, stderr } = await inProcess();
    stdin.write("not json\n");
    expect(await next()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: expect.stringMatching(/^Parse error: the line is not JSON \(.+\)$/) },
    });
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 5, method: 7 })}\n`);
    expect(await next()).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: {
        code: -32600,
        message: "Invalid Request: the line is JSON but no JSON-RPC request, notification or response",
      },
    });
    expect(stderr().trim().split("\n")).toEqual([
      expect.stringMatching(/^MCP stdio: a line of stdin \(8 characters\) was not served, answered -32700 /),
      expect.stringMatching(/ \(request ids 5\)$/),
    ]);
  });

  it("a line past maxBufferSize over several chunks: answered -32600 to its id, not run; the message after it in the same chunk is served", async () => {
    const { stdin, next, stderr } = await inProcess(1_024);
    const long = call("long-1", "x".repeat(3_000));
    stdin.write(long.slice(0, 1_000));
    stdin.write(long.slice(1_000, 2_000));
    stdin.write(`${long.slice(2_000)}\n${call(2, "abc")}\n`);
    expect(await next()).toEqual({
      jsonrpc: "2.0",
      id: "long-1",
      error: {
        code: -32600,
        message: `Invalid Request: the message is ${long.length} bytes long, more than the 1024 this server reads in one line: it was not read`,
      },
    });
    expect(await next()).toMatchObject({ id: 2, result: { content: [{ text: "3" }] } });
    expect(stderr()).toBe(
      `MCP stdio: a line of stdin (${long.length} bytes) was not served, answered -32600 Invalid Request: the message is ${long.length} bytes long, more than the 1024 this server reads in one line: it was not read (request ids "long-1")\n`,
    );
  });

  it("a response past maxBufferSize is answered once without an id (its id is the server's own request's, not the client's)", async () => {
    const { stdin, next } = await inProcess(1_024);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 7, result: { pad: "x".repeat(3_000) } })}\n`);
    expect(await next()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: expect.stringMatching(/^Invalid Request: the message is 3\d{3} bytes long/),
      },
    });
    stdin.write(`${call(2, "abc")}\n`);
    expect(await next()).toMatchObject({ id: 2, result: { content: [{ text: "3" }] } });
  });
});
