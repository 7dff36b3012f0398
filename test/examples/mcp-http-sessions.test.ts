// The example's HTTP host against what 2025-11-25 clients do with their sessions (docs/reliability.md,
// hardening round 8, P10 and P11): a session ended (DELETE) while one of its calls runs, by the SDK clients
// v1 and v2 and by a raw fetch; a JSON-RPC batch in a session whose protocol version has none.
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "entity-tools";
import { createMcpServer } from "entity-tools/mcp";
import { serveHttp } from "../../examples/mcp-server/server.js";
import {
  BATCH_REFUSED,
  measuringTool,
  streamedMessages,
  TWO_ANSWERS,
  TWO_CALLS,
} from "../support/mcp-batches.js";

/** Each call of `waiting` that started: its signal's reason once it aborted; `finish` ends the tool itself. */
const calls: { aborted: Promise<unknown>; finish: (text: string) => void }[] = [];
const waiting = defineTool({
  name: "waiting",
  description: "Runs until the test finishes it",
  execute: (_input: Record<string, never>, { signal }) => {
    let aborted!: (reason: unknown) => void;
    let finish!: (text: string) => void;
    const result = new Promise<string>((resolve) => (finish = resolve));
    calls.push({ aborted: new Promise((resolve) => (aborted = resolve)), finish });
    signal.addEventListener("abort", () => aborted(signal.reason));
    return result;
  },
});
const { tool: measure, runs } = measuringTool();

const runLogs = mkdtempSync(path.join(tmpdir(), "mcp-http-sessions-"));
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
let served: Awaited<ReturnType<typeof serveHttp>>;
beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  served = await serveHttp(0, {
    server: () =>
      createMcpServer({ name: "shop", version: "1.0.0", tools: [waiting, measure], runLog: runLogs }),
  });
});
afterAll(async () => {
  await served.close();
  process.off("unhandledRejection", onUnhandled);
  rmSync(runLogs, { recursive: true, force: true });
});

/** Resolves once `ready()` holds, checked each turn of the event loop (what it waits for happens on its own). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setImmediate(resolve));
}

/** The types of the records of the run log files written since `before` was listed. */
function newRunLogs(before: readonly string[]): string[][] {
  return readdirSync(runLogs)
    .filter((f) => f.endsWith(".jsonl") && !before.includes(f))
    .map((f) =>
      readFileSync(path.join(runLogs, f), "utf8")
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { type: string }).type),
    );
}

const headers = (sessionId?: string) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
  ...(sessionId ? { "mcp-session-id": sessionId } : {}),
});

/** A 2025-11-25 session opened with fetch, at protocol `version`: its id. */
async function rawSession(version = "2025-11-25"): Promise<string> {
  const init = await fetch(served.url, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
    }),
  });
  const id = init.headers.get("mcp-session-id")!;
  expect(await init.text()).toContain(`"protocolVersion":"${version}"`);
  const initialized = await fetch(served.url, {
    method: "POST",
    headers: { ...headers(id), "mcp-protocol-version": version },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  expect(initialized.status).toBe(202);
  return id;
}

/** A tools/list with session id `id`, as a client sends it after its session ended. */
const listWith = (id: string) =>
  fetch(served.url, {
    method: "POST",
    headers: headers(id),
    body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
  });

/** What a caller's call ended in: the error it read (its code, its message). */
type Ended = { code?: unknown; message?: unknown } | string;
/** The error a client's call rejected with, or what it resolved with (no error). */
const ended = (call: Promise<unknown>): Promise<Ended> =>
  call.then(JSON.stringify, ({ code, message }: { code?: unknown; message?: unknown }) => ({
    code,
    message,
  }));

/** How each client ends its session mid-call, and the call's end as the caller reads it. */
const enders: Record<
  string,
  () => Promise<{ sessionId: string; end: () => Promise<unknown>; pending: Promise<Ended> }>
> = {
  "the SDK v1 client's terminateSession": async () => {
    const client = new Client({ name: "v1", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(served.url));
    await client.connect(transport);
    const pending = ended(client.callTool({ name: "waiting", arguments: {} }));
    return { sessionId: transport.sessionId!, end: () => transport.terminateSession(), pending };
  },
  "the SDK v2 client's terminateSession (2025-11-25)": async () => {
    const client = new ClientV2({ name: "v2", version: "1.0.0" }, { versionNegotiation: { mode: "legacy" } });
    const transport = new TransportV2(new URL(served.url));
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    const pending = ended(client.callTool({ name: "waiting", arguments: {} }));
    return { sessionId: transport.sessionId!, end: () => transport.terminateSession(), pending };
  },
  "a raw DELETE with the session id": async () => {
    const sessionId = await rawSession();
    // Not awaited: the response's headers come with its first event (the SDK sends no priming event).
    const pending = fetch(served.url, {
      method: "POST",
      headers: headers(sessionId),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "waiting", arguments: {} },
      }),
    }).then(async (response) => {
      // The call's event stream, until it ends: its one event, the answer to request 7.
      const [event] = (await response.text()).split("\n").filter((line) => line.startsWith("data: "));
      const answer = JSON.parse(event!.slice(6)) as { id: number; error: { code: number; message: string } };
      return answer.id === 7 ? answer.error : JSON.stringify(answer);
    });
    const end = async () =>
      (await fetch(served.url, { method: "DELETE", headers: headers(sessionId) })).status;
    return { sessionId, end, pending };
  },
};

describe("the example's HTTP host: a session ended (DELETE) while one of its calls runs", () => {
  for (const [client, open] of Object.entries(enders))
    it(`P10: ${client}: the caller reads that the session closed, the call is cancelled, the run log ends with its end, the session is gone (404)`, async () => {
      const before = readdirSync(runLogs);
      const count = calls.length;
      const { sessionId, end, pending } = await open();
      await until(() => calls.length > count);
      const call = calls[count]!;
      expect(served.sessions()).toBe(1);
      await end();
      expect(await pending).toEqual({
        code: -32000,
        message: expect.stringMatching(
          /Session closed: the session ended while this request ran, and its result will not be sent$/,
        ),
      });
      expect(String(await call.aborted)).toMatch(/Connection closed/);
      call.finish("too late"); // the tool's own result, after its session ended: dropped
      expect(served.sessions()).toBe(0);
      await until(() => (newRunLogs(before)[0]?.length ?? 0) === 4); // its header, step, call and end
      expect(newRunLogs(before)).toEqual([["run", "step", "call", "end"]]);
      const file = readdirSync(runLogs).find((f) => f.endsWith(".jsonl") && !before.includes(f))!;
      expect(readFileSync(path.join(runLogs, file), "utf8")).toContain('"reason":"cancelled"');
      const later = await listWith(sessionId);
      expect([later.status, await later.json()]).toEqual([
        404,
        { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
      ]);
      expect(unhandled).toEqual([]);
    });
});

describe("the example's HTTP host: a JSON-RPC batch in a 2025-11-25 session", () => {
  it("P11: at 2025-06-18 or later (no batches), refused 400 Invalid Request saying why; nothing runs; the session goes on", async () => {
    const client = new Client({ name: "v1", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(served.url));
    await client.connect(transport);
    const before = runs.count;
    const batch = await fetch(served.url, {
      method: "POST",
      headers: headers(transport.sessionId),
      body: ` \n${JSON.stringify(TWO_CALLS)}`,
    });
    expect([batch.status, await batch.json()]).toEqual(BATCH_REFUSED);
    expect(runs.count).toBe(before);
    expect((await client.callTool({ name: "measure", arguments: { text: "abcd" } })).content).toEqual([
      { type: "text", text: "4" },
    ]);
    await client.close();
  });

  it("P11: in a session negotiated at 2025-03-26 (which had batches), a batch is served: both answered", async () => {
    const sessionId = await rawSession("2025-03-26");
    const batch = await fetch(served.url, {
      method: "POST",
      headers: { ...headers(sessionId), "mcp-protocol-version": "2025-03-26" },
      body: JSON.stringify(TWO_CALLS),
    });
    expect(batch.status).toBe(200);
    expect(await streamedMessages(batch)).toEqual(TWO_ANSWERS);
  });
});
