// `McpStreamableHTTPServerTransport` from `entity-tools/mcp` in a sessionful 2025-11-25 host of the
// simplest kind (a transport per session, looked up by its id), reached by the official SDK clients v1 and
// v2 through a fetch that calls the host directly: a session ended while one of its calls runs answers the
// call (-32000 Session closed) instead of leaving its caller waiting for its own timeout.
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool } from "entity-tools";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { createMcpServer, McpStreamableHTTPServerTransport } from "entity-tools/mcp";
import {
  BATCH_REFUSED,
  measureCall,
  measuringTool,
  streamedMessages,
  TWO_ANSWERS,
  TWO_CALLS,
} from "../support/mcp-batches.js";

/** Each call of `waiting` that started: its signal's reason once it aborted. */
const calls: { aborted: Promise<unknown> }[] = [];
const waiting = defineTool({
  name: "waiting",
  description: "Runs until its call is cancelled",
  execute: (_input: Record<string, never>, { signal }) => {
    calls.push({
      aborted: new Promise((resolve) => signal.addEventListener("abort", () => resolve(signal.reason))),
    });
    return new Promise<string>(() => {});
  },
});

const { tool: measure, runs } = measuringTool();

/**
 * A sessionful host: a server and a transport per session, a request routed by its session id. `seen`, when
 * given, is the application's own message handler, set before the server connects (which chains it).
 */
function sessionHost(seen?: (message: JSONRPCMessage) => void) {
  const sessions = new Map<string, McpStreamableHTTPServerTransport>();
  const fetch = async (request: Request): Promise<Response> => {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) return sessions.get(id)?.handleRequest(request) ?? new Response(null, { status: 404 });
    const transport = new McpStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
      onsessionclosed: (sessionId) => void sessions.delete(sessionId),
    });
    if (seen) transport.onmessage = seen;
    await createMcpServer({ name: "shop", version: "1.0.0", tools: [waiting, measure] }).connect(transport);
    return transport.handleRequest(request);
  };
  return { sessions, fetch: (url: string | URL, init?: RequestInit) => fetch(new Request(url, init)) };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Resolves once `ready()` holds, checked each turn of the event loop (what it waits for happens on its own). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setImmediate(resolve));
}

/** The error a client's call rejected with (its code and message), or "resolved". */
const ended = (call: Promise<unknown>) =>
  call.then(
    () => "resolved",
    ({ code, message }: { code?: unknown; message?: unknown }) => ({ code, message }),
  );

/** A 2025-11-25 session of each official SDK client on the host: a call of `waiting`, and how it ends its session. */
const clients: Record<
  string,
  (
    host: ReturnType<typeof sessionHost>,
  ) => Promise<{ call: () => Promise<unknown>; terminate: () => Promise<void> }>
> = {
  "the SDK v1 client": async (host) => {
    const transport = new TransportV1(new URL("http://mcp.test/mcp"), { fetch: host.fetch });
    const client = new ClientV1({ name: "v1", version: "1.0.0" });
    await client.connect(transport);
    closers.push(() => client.close());
    return {
      call: () => client.callTool({ name: "waiting", arguments: {} }),
      terminate: () => transport.terminateSession(),
    };
  },
  "the SDK v2 client (2025-11-25)": async (host) => {
    const transport = new TransportV2(new URL("http://mcp.test/mcp"), { fetch: host.fetch });
    const client = new ClientV2({ name: "v2", version: "1.0.0" }, { versionNegotiation: { mode: "legacy" } });
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    closers.push(() => client.close());
    return {
      call: () => client.callTool({ name: "waiting", arguments: {} }),
      terminate: () => transport.terminateSession(),
    };
  },
};

const SESSION_CLOSED = {
  code: -32000,
  message: expect.stringMatching(
    /Session closed: the session ended while this request ran, and its result will not be sent$/,
  ),
};

describe("McpStreamableHTTPServerTransport: a session closed while a call runs", () => {
  for (const [name, open] of Object.entries(clients)) {
    it(`${name} ends its session (DELETE): the call fails at once with -32000 Session closed; the tool is cancelled`, async () => {
      const host = sessionHost();
      const { call, terminate } = await open(host);
      const count = calls.length;
      const pending = ended(call());
      await until(() => calls.length > count);
      await terminate();
      expect(await pending).toEqual(SESSION_CLOSED);
      expect(String(await calls[count]!.aborted)).toMatch(/Connection closed/);
      expect(host.sessions.size).toBe(0);
    });

    it(`${name}: the host closes the session (idle, shutting down): the call fails at once with -32000 Session closed`, async () => {
      const host = sessionHost();
      const { call } = await open(host);
      const count = calls.length;
      const pending = ended(call());
      await until(() => calls.length > count);
      await Promise.all([...host.sessions.values()].map((transport) => transport.close()));
      expect(await pending).toEqual(SESSION_CLOSED);
    });
  }
});

describe("McpStreamableHTTPServerTransport with an application's own message handler", () => {
  it("set before the server connects: it sees every message, the server serves them, and a session closed mid-call still answers the call", async () => {
    const methods: string[] = [];
    const host = sessionHost((message) => void ("method" in message && methods.push(message.method)));
    const { call, terminate } = await clients["the SDK v2 client (2025-11-25)"]!(host);
    const count = calls.length;
    const pending = ended(call());
    await until(() => calls.length > count);
    await terminate();
    expect(await pending).toEqual(SESSION_CLOSED);
    expect(methods).toEqual(["initialize", "notifications/initialized", "tools/call"]);
  });
});

describe("McpStreamableHTTPServerTransport: a JSON-RPC batch in a session", () => {
  const headers = (version: string, sessionId?: string) => ({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": version,
    ...(sessionId ? { "mcp-session-id": sessionId } : {}),
  });
  /** A session opened with fetch at protocol `version`: its id. */
  async function session(host: ReturnType<typeof sessionHost>, version: string): Promise<string> {
    const init = await host.fetch("http://mcp.test/mcp", {
      method: "POST",
      headers: headers(version),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
      }),
    });
    expect(await init.text()).toContain(`"protocolVersion":"${version}"`);
    const id = init.headers.get("mcp-session-id")!;
    await host.fetch("http://mcp.test/mcp", {
      method: "POST",
      headers: headers(version, id),
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    return id;
  }

  it("at 2025-11-25 (no batches since 2025-06-18): refused 400 -32600 saying why; nothing runs; the session goes on", async () => {
    const host = sessionHost();
    const id = await session(host, "2025-11-25");
    const before = runs.count;
    const batch = await host.fetch("http://mcp.test/mcp", {
      method: "POST",
      headers: headers("2025-11-25", id),
      body: ` \n${JSON.stringify(TWO_CALLS)}`,
    });
    expect([batch.status, await batch.json()]).toEqual(BATCH_REFUSED);
    expect(runs.count).toBe(before);
    const single = await host.fetch("http://mcp.test/mcp", {
      method: "POST",
      headers: headers("2025-11-25", id),
      body: JSON.stringify(measureCall(3, "abcd")),
    });
    expect(await single.text()).toContain('"text":"4"');
  });

  it("at 2025-03-26 (which had batches): served, each answered", async () => {
    const host = sessionHost();
    const id = await session(host, "2025-03-26");
    const batch = await host.fetch("http://mcp.test/mcp", {
      method: "POST",
      headers: headers("2025-03-26", id),
      body: JSON.stringify(TWO_CALLS),
    });
    expect(batch.status).toBe(200);
    expect(await streamedMessages(batch)).toEqual(TWO_ANSWERS);
  });
});
