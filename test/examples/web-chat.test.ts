// examples/web-chat: a multi-turn chat kept in a conversation store. In a real headless Chromium (Debian's
// `chromium`, which .ci/run installs when it is missing): discovery in turn 1, a call of the discovered tool
// in turn 2, an approval button in turn 3 and the run going on after the click, and a conversation that
// survives a server restart. Over HTTP: useChat's own transport, bad bodies, the OpenAI-compatible mode, and
// a run stopped when the page goes away.
import "../../examples/register-schemas.js";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";
import type { Browser } from "playwright-core";
import { afterAll, describe, expect, it, vi } from "vitest";
import { FileConversationStore, type ConversationStore } from "entity-tools";
import { InMemoryConversationStore } from "entity-tools/testing";
import { issuedCredit } from "../../examples/web-chat/chat-agent.js";
import { defaultStoreDirectory, startWebChat } from "../../examples/web-chat/server.js";
import { startOpenAiMock } from "../support/openai-mocks.js";
import { corsHeaders, rawRequest } from "../support/raw-http.js";
import { chromiumPresent, launchChromium } from "../support/viewer-browser.js";

const present = chromiumPresent("web-chat browser test");

const OFFLINE = { env: {} }; // no OPENAI_* variables: the offline model, whatever the machine has
const servers: Server[] = [];
const dirs: string[] = [];
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  for (const server of servers) server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "web-chat-"));
  dirs.push(dir);
  return dir;
}

async function start(port: number, options: Parameters<typeof startWebChat>[1]) {
  const started = await startWebChat(port, options);
  servers.push(started.server);
  return started;
}

const stop = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** A page of the one headless Chromium the file launches. */
async function newPage() {
  browser ??= await launchChromium();
  return browser.newPage();
}

describe.skipIf(!present)("examples/web-chat in headless Chromium", () => {
  it("turn 1 discovers, turn 2 calls the discovered tool, turn 3 waits for the Approve button and goes on after the click; a restart loses nothing", async () => {
    issuedCredit.length = 0;
    const data = scratch();
    const first = await start(0, { ...OFFLINE, store: new FileConversationStore(data) });
    const page = await newPage();
    await page.goto(first.url);
    const say = async (text: string, turn: number) => {
      await page.fill("#question", text);
      await page.click("#send");
      await page.waitForSelector(`body[data-turns="${turn}"]`, { timeout: 20_000 });
    };
    const cards = () =>
      page.$$eval(".tool", (all) =>
        all.map((c) => [c.getAttribute("data-tool"), c.getAttribute("data-state")]),
      );

    await say("Find John Smith", 1);
    expect(await page.textContent(".tools")).toBe(
      "new tools: customer_c123_getAverageSpend, customer_c123_recentOrders",
    );
    await say("What is his average monthly spend?", 2);
    expect(await cards()).toEqual([
      ["searchCustomer", "output-available"],
      ["customer_c123_getAverageSpend", "output-available"], // no second search: the tool stayed bound
    ]);
    expect(await page.textContent(".tool.new")).toBe(
      'customer_c123_getAverageSpend({}) → {"amount":46.83,"currency":"USD"}',
    );
    expect(await page.textContent(".assistant:last-of-type")).toBe(
      "John Smith spends 46.83 USD a month on average.",
    );

    await say("Give him 10 USD of store credit", 3);
    expect((await cards()).at(-1)).toEqual(["issueStoreCredit", "approval-requested"]);
    expect(await page.isVisible(".tool button.approve")).toBe(true);
    expect(issuedCredit).toEqual([]);
    await page.click(".tool button.approve");
    await page.waitForSelector('body[data-turns="4"]', { timeout: 20_000 });
    expect((await cards()).at(-1)).toEqual(["issueStoreCredit", "output-available"]);
    expect(issuedCredit).toEqual(["c123 10"]);
    const texts = await page.$$eval(".assistant", (all) => all.map((d) => d.textContent));
    expect(texts.at(-1)).toBe("Done. Issued 10 USD of store credit to c123.");

    // The server restarts on the same port and data: the conversation goes on, its tools still bound.
    const port = Number(new URL(first.url).port);
    await stop(first.server);
    await start(port, { ...OFFLINE, store: new FileConversationStore(data) });
    await say("And his spend again?", 5);
    expect((await cards()).at(-1)).toEqual(["customer_c123_getAverageSpend", "output-available"]);
    expect((await cards()).filter(([name]) => name === "searchCustomer")).toHaveLength(1);
  }, 90_000);

  it("a message refused because the conversation is busy (409) goes back into the input; sent again, the model reads it", async () => {
    const store = new InMemoryConversationStore();
    let busy = true; // another server's live turn holds every conversation, until it ends
    const held: ConversationStore = {
      get: async (id) =>
        busy ? { snapshot: undefined, version: 1, busyUntil: Date.now() + 60_000 } : store.get(id),
      put: (...write) => store.put(...write),
      renewTurn: (...renewal) => store.renewTurn(...renewal),
    };
    const { url } = await start(0, { ...OFFLINE, store: held });
    const page = await newPage();
    await page.goto(url);
    await page.fill("#question", "Find John Smith");
    await page.click("#send");
    await page.waitForSelector(".assistant.error");
    expect(await page.textContent(".assistant.error")).toMatch(/has a turn in progress/);
    expect(await page.inputValue("#question")).toBe("Find John Smith");
    expect(await page.$$(".user")).toHaveLength(0);
    busy = false;
    await page.click("#send");
    await page.waitForSelector('body[data-turns="1"]', { timeout: 20_000 });
    expect(await page.$$eval(".user", (all) => all.map((d) => d.textContent))).toEqual(["Find John Smith"]);
    expect(await page.textContent(".tools")).toBe(
      "new tools: customer_c123_getAverageSpend, customer_c123_recentOrders",
    ); // the model read the message and searched
    await page.close();
  }, 60_000);
});

describe("examples/web-chat over HTTP", () => {
  it("useChat's own transport: two turns and an approval answered as addToolApprovalResponse sends it", async () => {
    issuedCredit.length = 0;
    const { url } = await start(0, { ...OFFLINE, store: new FileConversationStore(scratch()) });
    const transport = new DefaultChatTransport<UIMessage>({ api: `${url}/api/chat` });
    const messages: UIMessage[] = [];
    const turn = async (text?: string) => {
      if (text) messages.push({ id: `u${messages.length}`, role: "user", parts: [{ type: "text", text }] });
      const last = messages.at(-1)!;
      const stream = await transport.sendMessages({
        chatId: "chat-1",
        messages,
        trigger: "submit-message",
        messageId: undefined,
        abortSignal: undefined,
      });
      let reply: UIMessage | undefined;
      for await (const m of readUIMessageStream({
        stream,
        message: last.role === "assistant" ? last : undefined,
      }))
        reply = structuredClone(m);
      if (last.role === "assistant") messages[messages.length - 1] = reply!;
      else messages.push(reply!);
      return reply!;
    };
    await turn("Find John Smith");
    const second = await turn("Give him 10 USD of store credit");
    const gated = second.parts.find((p) => p.type === "dynamic-tool" && p.toolName === "issueStoreCredit");
    expect(gated).toMatchObject({ state: "approval-requested", approval: { id: expect.any(String) } });
    Object.assign(gated!, {
      state: "approval-responded",
      approval: { id: (gated as { approval: { id: string } }).approval.id, approved: true },
    });
    const third = await turn();
    expect(third.id).toBe(second.id); // the paused assistant message goes on
    expect(
      third.parts.find((p) => p.type === "dynamic-tool" && p.toolName === "issueStoreCredit"),
    ).toMatchObject({
      state: "output-available",
      output: "Issued 10 USD of store credit to c123.",
    });
    expect(issuedCredit).toEqual(["c123 10"]);
    // The same approval sent again: nothing waits for it any more; refused, nothing runs twice.
    const again = await fetch(`${url}/api/chat`, {
      method: "POST",
      body: JSON.stringify({ id: "chat-1", messages: [...messages.slice(0, -1), second] }),
    });
    expect(again.status).toBe(409);
    expect(issuedCredit).toEqual(["c123 10"]);
  });

  it("a body that is not JSON, or not useChat's, gets a 400 and the server keeps serving", async () => {
    const { url } = await start(0, { ...OFFLINE, store: new FileConversationStore(scratch()) });
    const post = (body: string) => fetch(`${url}/api/chat`, { method: "POST", body });
    const bad = await post("{not json");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "The body is not JSON." });
    expect((await post('{"id": "x"}')).status).toBe(400);
    expect(
      (await post('{"id": "", "messages": [{"role":"user","parts":[{"type":"text","text":"hi"}]}]}')).status,
    ).toBe(400);
    expect((await fetch(url)).status).toBe(200);
  });

  it("OpenAI-compatible mode: the model named by --model (modelId) is what the server asks for", async () => {
    const mock = await startOpenAiMock("chat", [{ text: "Hello from the mock." }]);
    try {
      await expect(startWebChat(0, { env: { OPENAI_BASE_URL: mock.baseURL } })).rejects.toThrow(
        "OPENAI_BASE_URL is set: name the served model with --model",
      );
      const { url } = await start(0, {
        env: { OPENAI_BASE_URL: mock.baseURL },
        modelId: "served-model",
        store: new FileConversationStore(scratch()),
      });
      const response = await fetch(`${url}/api/chat`, {
        method: "POST",
        body: JSON.stringify({
          id: "c",
          messages: [{ id: "1", role: "user", parts: [{ type: "text", text: "Hi" }] }],
        }),
      });
      expect(await response.text()).toContain('"delta":"mock."');
      expect(mock.requests[0]!.body.model).toBe("served-model");
    } finally {
      await mock.close();
    }
  });

  it("the page going away stops the run: the model request in flight is cancelled", async () => {
    // A model server that never answers, and records when its request is cancelled.
    let cancelled!: () => void;
    const gone = new Promise<void>((resolve) => (cancelled = resolve));
    let asked!: () => void;
    const reached = new Promise<void>((resolve) => (asked = resolve));
    const hanging = createServer((req) => {
      asked();
      req.socket.on("close", () => cancelled());
    });
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    servers.push(hanging);
    const baseURL = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/v1`;
    const { url } = await start(0, {
      env: { OPENAI_BASE_URL: baseURL },
      modelId: "m",
      store: new FileConversationStore(scratch()),
    });
    const page = new AbortController();
    const response = fetch(`${url}/api/chat`, {
      method: "POST",
      body: JSON.stringify({
        id: "c",
        messages: [{ id: "1", role: "user", parts: [{ type: "text", text: "Hi" }] }],
      }),
      signal: page.signal,
    }).then((r) => r.body?.getReader().read());
    await reached;
    page.abort();
    await response.catch(() => {});
    await gone; // times out (the test fails) if the run went on waiting for the model
  });
});

describe("examples/web-chat over HTTP", () => {
  it("a failed model call: the page reads the masked error, the server logs the cause", async () => {
    const mock = await startOpenAiMock("chat", [
      { status: 400, error: "the model rejected the request: context_length_exceeded" },
    ]);
    const logged: unknown[][] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args));
    try {
      const { url } = await start(0, {
        env: { OPENAI_BASE_URL: mock.baseURL },
        modelId: "m",
        store: new FileConversationStore(scratch()),
      });
      const response = await fetch(`${url}/api/chat`, {
        method: "POST",
        body: JSON.stringify({
          id: "c-fail",
          messages: [{ id: "1", role: "user", parts: [{ type: "text", text: "Hi" }] }],
        }),
      });
      const page = await response.text();
      expect(page).toContain("An error occurred.");
      expect(page).not.toContain("context_length_exceeded");
      const line = logged.find((args) => String(args[0]).includes("conversation c-fail failed"));
      expect(line).toBeDefined();
      expect(String((line![1] as Error).message)).toContain("context_length_exceeded");
    } finally {
      spy.mockRestore();
      await mock.close();
    }
  });

  const hi = (id: string) =>
    JSON.stringify({ id, messages: [{ id: "1", role: "user", parts: [{ type: "text", text: "Hi" }] }] });

  it("a page of another site (DNS rebinding: Host evil.example; cross-site: Origin evil.example) is refused 403 before anything runs; allowedHosts names pass; no CORS headers", async () => {
    const store = new InMemoryConversationStore();
    const { url } = await start(0, { ...OFFLINE, store, allowedHosts: ["chat.internal"] });
    const port = new URL(url).port;
    for (const headers of [
      { host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
      { host: `evil.example:${port}` },
      { origin: "http://evil.example" },
    ]) {
      const chat = await rawRequest(`${url}/api/chat`, { method: "POST", headers, body: hi("rebound") });
      expect(chat.status).toBe(403);
      expect(JSON.parse(chat.body).error).toMatch(
        /^Refused: this server answers requests for localhost, 127\.0\.0\.1, \[::1\], chat\.internal only, and this one .*"(evil\.example:\d+|http:\/\/evil\.example(:\d+)?)" \((Host|Origin)\)\./,
      );
      expect(corsHeaders(chat)).toEqual([]);
      expect((await rawRequest(url, { headers })).status).toBe(403); // the page itself too
    }
    const preflight = await rawRequest(`${url}/api/chat`, {
      method: "OPTIONS",
      headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(403);
    expect(corsHeaders(preflight)).toEqual([]);
    expect(await store.get("rebound")).toBeUndefined(); // nothing ran, nothing was stored
    for (const headers of [
      { origin: url },
      { host: `chat.internal:${port}`, origin: `http://chat.internal:${port}` },
    ]) {
      const chat = await rawRequest(`${url}/api/chat`, { method: "POST", headers, body: hi("allowed") });
      expect(chat.status).toBe(200);
      expect(corsHeaders(chat)).toEqual([]);
    }
  });

  it("a turn while another holds the conversation: 409 with Retry-After, the error's retryAfterMs in whole seconds", async () => {
    const store = new InMemoryConversationStore();
    await store.put("held", undefined, undefined, Date.now() + 600_000); // another server's live turn
    const { url } = await start(0, { ...OFFLINE, store });
    const response = await fetch(`${url}/api/chat`, { method: "POST", body: hi("held") });
    expect(response.status).toBe(409);
    const { error } = (await response.json()) as { error: string };
    const retryAfterMs = Number(/\(retryAfterMs: (\d+)\)/.exec(error)![1]);
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(response.headers.get("retry-after")).toBe(String(Math.ceil(retryAfterMs / 1000)));
  });

  it("a conversation over --max-snapshot-bytes (the limit lowered since): 413 saying to start a new one, before the model", async () => {
    const data = scratch();
    const { url: roomy, server } = await start(0, { ...OFFLINE, store: new FileConversationStore(data) });
    await (await fetch(`${roomy}/api/chat`, { method: "POST", body: hi("big") })).text();
    await stop(server);
    const store = new FileConversationStore(data, { maxSnapshotBytes: 100 });
    const { url } = await start(0, { ...OFFLINE, store });
    const response = await fetch(`${url}/api/chat`, { method: "POST", body: hi("big") });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /^Conversation "big" is over the store's limit: .* this turn did not start \(nothing ran\)\. Start a new conversation, or raise the limit\.$/,
    );
    expect((await store.get("big"))?.version).toBe(2); // its first turn's claim and save, nothing since
  });

  it("without --store, conversations go to ~/.entity-tools/web-chat, never the shared temporary directory, for their owner only", async () => {
    const home = scratch();
    expect(defaultStoreDirectory({ HOME: "/home/ada" })).toBe("/home/ada/.entity-tools/web-chat");
    const { url } = await start(0, { env: { HOME: home } });
    const response = await fetch(`${url}/api/chat`, { method: "POST", body: hi("mine") });
    expect(await response.text()).toContain('"type":"finish"'); // the turn was saved before the end
    const folder = path.join(home, ".entity-tools", "web-chat");
    expect(readdirSync(folder)).toEqual([Buffer.from("mine").toString("base64url")]);
    for (const dir of [path.join(home, ".entity-tools"), folder])
      expect((statSync(dir).mode & 0o777).toString(8)).toBe("700");
  });
});
