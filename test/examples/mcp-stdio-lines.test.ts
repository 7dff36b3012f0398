// The example MCP server over stdio, a real child process, against lines that are no MCP message
// (docs/reliability.md, hardening round 8, P12): each is answered on stdout, as JSON-RPC 2.0 says, and said on stderr; nothing
// runs, and the session goes on. The SDK's transport dropped them without a word: the client waited.
import { ReadBuffer as ReadBufferV2 } from "@modelcontextprotocol/client";
import { ReadBuffer } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { expect, it } from "vitest";

/** A line of the server's stdout as the SDK clients (v1, v2) read it: a message, or their error. */
function readByClients(line: string): unknown[] {
  return [new ReadBuffer(), new ReadBufferV2()].map((buffer) => {
    buffer.append(Buffer.from(`${line}\n`));
    try {
      return buffer.readMessage();
    } catch (error) {
      return String(error);
    }
  });
}

/** The example server over stdio, as an MCP client starts it: the process, what it wrote to stderr, its exit. */
function startServer() {
  const child = spawn(process.execPath, ["--import", "tsx", "examples/mcp-server/server.ts"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let written = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (written += text));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, stderr: () => written, exited };
}

/** Talks to the server line by line: what it answers, read as the SDK clients (v1 and v2 alike: checked) read it. */
function lineSession(child: ReturnType<typeof startServer>["child"]) {
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  /** The server's next line on stdout. */
  const answer = async (): Promise<unknown> => {
    const [v1, v2] = readByClients((await lines.next()).value as string);
    expect(v2).toEqual(v1);
    return v1;
  };
  /** Writes `line` to the server's stdin and reads its next line on stdout. */
  const ask = (line: string): Promise<unknown> => {
    child.stdin.write(`${line}\n`);
    return answer();
  };
  return { answer, ask };
}

const request = (id: number, method: string, params?: object) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });

/** Opens a 2025-11-25 session on the line. */
async function initialize(
  child: ReturnType<typeof startServer>["child"],
  ask: (line: string) => Promise<unknown>,
): Promise<void> {
  const initialized = await ask(
    request(1, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1.0.0" },
    }),
  );
  expect(initialized).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
}

it("P12: a line that is not JSON, JSON that is no message, a batch: answered -32700 / -32600 (by id when it has one), told on stderr; nothing runs; the session goes on", async () => {
  const { child, stderr, exited } = startServer();
  const { answer, ask } = lineSession(child);
  await initialize(child, ask);

  // Not JSON: a Parse error with no id (MCP's error response for an id that could not be read; the SDK
  // clients refuse JSON-RPC's `id: null` as no message).
  expect(await ask("not json")).toEqual({
    jsonrpc: "2.0",
    error: { code: -32700, message: expect.stringMatching(/^Parse error: the line is not JSON \(.+\)$/) },
  });
  // A blank line asks nothing: the next answer is the next line's.
  child.stdin.write("\r\n");
  expect(await ask(JSON.stringify({ jsonrpc: "2.0", id: 5, method: 7 }))).toEqual({
    jsonrpc: "2.0",
    id: 5,
    error: {
      code: -32600,
      message: "Invalid Request: the line is JSON but no JSON-RPC request, notification or response",
    },
  });
  // A batch (MCP has none since 2025-06-18): each of its requests is answered, none runs.
  const batch = `[${request(2, "tools/list")},${request(3, "tools/call", { name: "searchCustomer", arguments: { name: "John Smith" } })}]`;
  const refused = {
    code: -32600,
    message:
      "Invalid Request: JSON-RPC batches are not part of MCP (removed in 2025-06-18): send each message on a line of its own",
  };
  expect(await ask(batch)).toEqual({ jsonrpc: "2.0", id: 2, error: refused });
  expect(await answer()).toEqual({ jsonrpc: "2.0", id: 3, error: refused });
  // The session goes on, and the batch's call did not run (it would have added the customer's tools).
  expect(await ask(request(4, "tools/list"))).toMatchObject({
    id: 4,
    result: { tools: [{ name: "searchCustomer" }, { name: "findCustomers" }] },
  });

  child.stdin.end();
  expect(await exited).toBe(0);
  expect(stderr().trim().split("\n")).toEqual([
    expect.stringMatching(
      /^MCP stdio: a line of stdin \(8 characters\) was not served, answered -32700 Parse error/,
    ),
    expect.stringMatching(/-32600 Invalid Request: the line is JSON but no .*\(request ids 5\)$/),
    expect.stringMatching(/-32600 Invalid Request: JSON-RPC batches .*\(request ids 2, 3\)$/),
  ]);
}, 60_000);

it("P12: a line longer than the SDK's 10 MiB a message may have is answered -32600 to its request's id and skipped; stderr says so; the session goes on", async () => {
  const { child, stderr, exited } = startServer();
  const { answer, ask } = lineSession(child);
  await initialize(child, ask);
  // A call that would find John Smith (and add his tools to the session), padded past the limit.
  const call = { name: "searchCustomer", arguments: { name: "John Smith" } };
  const huge = request(2, "tools/call", { ...call, _meta: { pad: "x".repeat(11_000_000) } });
  const refused = `Invalid Request: the message is ${huge.length} bytes long, more than the 10485760 this server reads in one line: it was not read`;
  expect(await ask(huge)).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32600, message: refused } });
  // The next line is read as usual, and the long line's call did not run: no customer's tools joined.
  expect(await ask(request(3, "tools/list"))).toMatchObject({
    id: 3,
    result: { tools: [{ name: "searchCustomer" }, { name: "findCustomers" }] },
  });
  // The same call on a line of its own runs: it adds his tools (list_changed), then answers.
  expect(await ask(request(4, "tools/call", call))).toEqual({
    jsonrpc: "2.0",
    method: "notifications/tools/list_changed",
  });
  expect(await answer()).toMatchObject({ id: 4, result: { isError: false } });
  child.stdin.end();
  expect(await exited).toBe(0);
  expect(stderr().trim().split("\n")).toEqual([
    `MCP stdio: a line of stdin (${huge.length} bytes) was not served, answered -32600 ${refused} (request ids 2)`,
  ]);
}, 60_000);
