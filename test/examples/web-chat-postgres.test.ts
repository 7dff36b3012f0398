// examples/web-chat as two server processes on one PostgreSQL database (`--store postgres://…`), as a
// deployment with two instances runs it: a conversation continued alternately through both, two turns at
// once, bad input, the database down at the start and mid-turn, and a server SIGKILLed mid-turn. The
// model is an OpenAI-compatible mock behind a gate the test opens, so a turn can be held mid-way.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresConversationStore } from "entity-tools/postgres";
import type { MockReply } from "entity-tools/testing";
import { startOpenAiMock, type OpenAiMock } from "../support/openai-mocks.js";
import { postgresPresent, startPostgres, type PostgresServer } from "../support/postgres-server.js";
import { readBody } from "../support/read-body.js";

const LEASE_MS = 3_000; // what a killed turn holds, unrenewed (a live one renews every third); whole seconds
const MAX_SNAPSHOT_BYTES = 100_000;

let database: PostgresServer;
let store: PostgresConversationStore;
let mock: OpenAiMock;
/** The model gate: requests wait while it is closed; `arrived` counts those that reached it. */
const gate = { open: Promise.resolve(), arrived: 0, waiters: [] as (() => void)[] };
let gateServer: Server;
const children: ChildProcess[] = [];
let a: string;
let b: string;
let killA: () => void;

/** The gate closes; the returned function opens it. */
function hold(): () => void {
  let open!: () => void;
  gate.open = new Promise<void>((resolve) => (open = resolve));
  return open;
}

/** Resolves when `n` model requests have reached the gate in all. */
function arrivals(n: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (gate.arrived >= n ? resolve() : gate.waiters.push(check));
    check();
  });
}

async function script(replies: MockReply[]) {
  await mock?.close();
  mock = await startOpenAiMock("chat", replies);
}

/** A web-chat server process on the database; resolves with its URL once it listens. */
async function spawnServer(storeUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const gateUrl = `http://127.0.0.1:${(gateServer.address() as AddressInfo).port}/v1`;
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.resolve("examples/web-chat/server.ts"), "0", "--model", "m"]
      .concat(["--store", storeUrl, "--lease-ms", String(LEASE_MS)])
      .concat(["--max-snapshot-bytes", String(MAX_SNAPSHOT_BYTES)]),
    { env: { PATH: process.env.PATH, OPENAI_BASE_URL: gateUrl }, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /web chat on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`web-chat exited (${code}): ${output}`)));
  });
  return { url, child };
}

/**
 * One user message to a server: the status and what the page shows (the streamed text and errors of a
 * UI message stream, or the JSON body of an HTTP error).
 */
async function say(
  url: string,
  id: string,
  text: string,
): Promise<{ status: number; body: string; retryAfter?: string | null }> {
  const response = await fetch(`${url}/api/chat`, {
    method: "POST",
    body: JSON.stringify({ id, messages: [{ id: "m", role: "user", parts: [{ type: "text", text }] }] }),
  });
  const raw = await response.text();
  if (!response.headers.get("content-type")?.includes("event-stream"))
    return { status: response.status, body: raw, retryAfter: response.headers.get("retry-after") };
  const chunks = raw.split("\n").flatMap((line) => {
    if (!line.startsWith("data: {")) return [];
    const chunk = JSON.parse(line.slice(6)) as { type: string; delta?: string; errorText?: string };
    return chunk.type === "text-delta" ? [chunk.delta] : chunk.type === "error" ? [chunk.errorText] : [];
  });
  return { status: response.status, body: chunks.join("") };
}

/** The user messages of a stored conversation, in order. */
async function userMessages(id: string): Promise<string[]> {
  const stored = await store.get(id);
  return (stored?.snapshot?.history ?? []).flatMap((m) =>
    m.role === "user" && typeof m.content === "string" ? [m.content] : [],
  );
}

/** Waits until the lease a dead turn left on `id` has run out. */
async function leaseOver(id: string): Promise<void> {
  const busyUntil = (await store.get(id))?.busyUntil ?? 0;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, busyUntil - Date.now()) + 100));
}

const offered = (request: { body: Record<string, unknown> }) =>
  ((request.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

beforeAll(async () => {
  if (!postgresPresent) return;
  database = await startPostgres();
  store = new PostgresConversationStore({ connectionString: database.url });
  gateServer = createServer(async (req, res) => {
    const body = await readBody(req);
    gate.arrived++;
    for (const waiter of gate.waiters.splice(0)) waiter();
    await gate.open;
    const upstream = await fetch(mock.baseURL.replace(/\/v1$/, "") + (req.url ?? ""), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }).catch(() => undefined);
    if (!upstream) return void res.writeHead(502).end();
    res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "" });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => gateServer.listen(0, "127.0.0.1", resolve));
  await script([]);
  const [first, second] = await Promise.all([spawnServer(database.url), spawnServer(database.url)]);
  a = first.url;
  b = second.url;
  killA = () => first.child.kill("SIGKILL");
});

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await store?.close();
  await mock?.close();
  gateServer?.close();
  await database?.remove();
});

describe.skipIf(!postgresPresent)(
  "examples/web-chat: two server processes on one PostgreSQL database",
  () => {
    it("a conversation continued alternately through both keeps the tools discovered in earlier turns", async () => {
      const id = "alternating";
      await script([
        { toolCalls: [{ name: "searchCustomer", input: { name: "John Smith" } }] },
        { text: "I found John Smith." },
        { toolCalls: [{ name: "customer_c123_getAverageSpend", input: {} }] },
        { text: "He spends 46.83 USD a month." },
        { text: "Anything else?" },
      ]);
      expect(await say(a, id, "Find John Smith")).toMatchObject({ status: 200 });
      const second = await say(b, id, "What does he spend?");
      expect(second.body).toContain("46.83 USD a month");
      expect((await say(a, id, "Thanks")).body).toContain("Anything else?");
      // What the model was offered: the customer's tools, found through A, offered by B and then by A.
      expect(offered(mock.requests[0]!)).not.toContain("customer_c123_getAverageSpend");
      expect(offered(mock.requests[2]!)).toContain("customer_c123_getAverageSpend");
      expect(JSON.stringify(mock.requests[3]!.body.messages)).toContain("46.83");
      expect(offered(mock.requests[4]!)).toContain("customer_c123_getAverageSpend");
      expect(await userMessages(id)).toEqual(["Find John Smith", "What does he spend?", "Thanks"]);
      expect((await store.get(id))?.version).toBe(6); // three turns, each a claim and a save
    });

    it("two turns at once through the two processes: the second is answered 409 before it runs; the first lands once", async () => {
      const id = "concurrent";
      await script([{ text: "Hello." }, { text: "Noted." }]);
      await say(a, id, "Hi");
      const before = gate.arrived;
      const open = hold();
      const first = say(a, id, "First at once");
      await arrivals(before + 1); // A's turn has claimed the conversation and waits for its model
      const second = await say(b, id, "Second at once");
      expect(second.status).toBe(409);
      expect(JSON.parse(second.body).error).toMatch(
        /^Conversation "concurrent" has a turn in progress \(another request started it .*\); this turn did not start\. Retry in \d+ s \(retryAfterMs: \d+\)/,
      );
      // When to retry: at most one lease (A renews its claim while it lives), in whole seconds.
      expect(Number(second.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(second.retryAfter)).toBeLessThanOrEqual(LEASE_MS / 1000);
      open();
      expect((await first).body).toContain("Noted.");
      expect(await userMessages(id)).toEqual(["Hi", "First at once"]);
      expect(mock.requests).toHaveLength(2); // the refused turn never reached the model
    });

    it("bad input: a path-like, malformed or over-long id is a 400; a snapshot over the limit is not saved and the conversation goes on", async () => {
      await script([{ text: "Hello." }, { text: "Too long to keep." }, { text: "Still here." }]);
      for (const id of ["../../etc/passwd", "not a uuid!", "x".repeat(101)]) {
        const { status, body } = await say(a, id, "Hi");
        expect(status).toBe(400);
        expect(JSON.parse(body)).toEqual({
          error: "The conversation id must be 1 to 100 letters, digits, - or _ (the page sends a UUID).",
        });
      }
      const id = "3f1c2a7e-9b1d-4c1e-8f6a-2b7d9e0c1a55";
      await say(a, id, "Hi");
      const huge = await say(b, id, "y".repeat(MAX_SNAPSHOT_BYTES + 1));
      expect(huge.body).toMatch(
        new RegExp(
          `This turn was not saved: Conversation "${id}" was not saved: its snapshot is \\d+ bytes, over the store's limit of ${MAX_SNAPSHOT_BYTES}`,
        ),
      );
      expect(await userMessages(id)).toEqual(["Hi"]);
      expect((await say(a, id, "Still there?")).body).toContain("Still here."); // released at once
      expect(await userMessages(id)).toEqual(["Hi", "Still there?"]);
      expect((await fetch(a)).status).toBe(200);
    });

    it("the database down at the start: each request is a 503 naming the store, and the server keeps serving", async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      const { port } = probe.address() as AddressInfo;
      await new Promise((resolve) => probe.close(resolve));
      const { url } = await spawnServer(`postgres://postgres@127.0.0.1:${port}/postgres`);
      const { status, body } = await say(url, "c-1", "Hi");
      expect(status).toBe(503);
      expect(JSON.parse(body).error).toMatch(
        /^The conversation store \(PostgreSQL, table "public"\."entity_tools_conversations"\) is unavailable: .*ECONNREFUSED.*\. Nothing was written; retry when it is back\.$/,
      );
      expect((await fetch(url)).status).toBe(200);
    });

    it("the database goes down mid-turn: the turn says it was not saved, nothing is lost, and the conversation goes on when it is back", async () => {
      const id = "outage";
      await script([{ text: "Hello." }, { text: "Lost to the outage." }, { text: "Back." }]);
      await say(a, id, "Hi");
      const before = gate.arrived;
      const open = hold();
      const during = say(a, id, "During the outage");
      await arrivals(before + 1);
      await database.stop();
      open();
      expect((await during).body).toMatch(
        /This turn was not saved: The conversation store \(PostgreSQL, table .*\) is unavailable: /,
      );
      expect((await fetch(a)).status).toBe(200); // no crash
      await database.start();
      expect(await userMessages(id)).toEqual(["Hi"]);
      await leaseOver(id); // the failed turn could not release its claim while the database was down
      expect((await say(b, id, "Are you back?")).body).toContain("Back.");
      expect(await userMessages(id)).toEqual(["Hi", "Are you back?"]);
    });

    it("a server SIGKILLed mid-turn: the stored conversation is the last completed turn; the next turn through the other process works", async () => {
      const id = "killed";
      await script([{ text: "Hello." }, { text: "Never heard." }, { text: "Here I am." }]);
      await say(a, id, "Hi");
      const before = gate.arrived;
      const open = hold();
      const doomed = say(a, id, "Doomed turn").catch(() => undefined);
      await arrivals(before + 1);
      killA();
      await doomed;
      open();
      expect(await userMessages(id)).toEqual(["Hi"]);
      // The dead turn holds the conversation until its lease runs out (LEASE_MS): then B goes on.
      expect((await say(b, id, "Too soon?")).status).toBe(409);
      await leaseOver(id);
      expect((await say(b, id, "Anyone there?")).body).toContain("Here I am.");
      expect(await userMessages(id)).toEqual(["Hi", "Anyone there?"]);
    });
  },
);
