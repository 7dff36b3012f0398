// localRequestGuard (entity-tools/building-blocks) on a real node:http server: the requests a page of
// another site can make reach a local server by DNS rebinding (`Host: evil.example`) or cross-site
// (`Origin: http://evil.example`), refused with 403 before the handler runs; local names and configured
// ones pass; no CORS headers.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidSettingError } from "entity-tools";
import { LOCAL_HOST_NAMES, localRequestGuard } from "entity-tools/building-blocks";
import {
  startAnthropicMessagesMock,
  startOpenAiChatMock,
  startOpenAiResponsesMock,
} from "entity-tools/testing";
import { corsHeaders, rawRequest } from "../support/raw-http.js";

let server: Server;
let url: string;
let handled = 0;

beforeAll(async () => {
  const guard = localRequestGuard({ allowedHosts: ["chat.internal", "Bücher.example", "[fd00::1]"] });
  server = createServer((req, res) => {
    if (!guard(req, res)) return;
    handled++;
    res.end("served");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => server.close());

const ALLOWED = "localhost, 127.0.0.1, [::1], chat.internal, xn--bcher-kva.example, [fd00::1]";

describe("localRequestGuard", () => {
  it("a foreign Host (DNS rebinding) or a foreign, null or unreadable Origin: 403 with the reason, the handler never runs, no CORS headers", async () => {
    const before = handled;
    const refused = [
      [{ host: "evil.example" }, 'this one was sent to "evil.example" (Host)'],
      [{ host: "evil.example:8080" }, 'this one was sent to "evil.example:8080" (Host)'],
      [{ host: "localhost." }, 'this one was sent to "localhost." (Host)'],
      [{ host: "127.0.0.1.evil.example" }, 'this one was sent to "127.0.0.1.evil.example" (Host)'],
      [{ origin: "http://evil.example" }, 'this one came from a page of "http://evil.example" (Origin)'],
      [{ origin: "null" }, 'this one came from a page of "null" (Origin)'],
      [
        { origin: "http://localhost.evil.example:3000" },
        'this one came from a page of "http://localhost.evil.example:3000" (Origin)',
      ],
    ] as const;
    for (const [headers, reason] of refused)
      for (const method of ["POST", "OPTIONS"]) {
        const response = await rawRequest(url, { method, headers });
        expect(response.status).toBe(403);
        expect(response.headers["content-type"]).toBe("application/json");
        expect(JSON.parse(response.body)).toEqual({
          error: `Refused: this server answers requests for ${ALLOWED} only, and ${reason}. A page of another site cannot use it; to serve it under another name on purpose, add the name to its allowed hosts.`,
        });
        expect(corsHeaders(response)).toEqual([]);
      }
    expect(handled).toBe(before);
  });

  it("local names (any port, any case) and the configured ones pass, with or without a matching Origin", async () => {
    const before = handled;
    for (const headers of [
      {} as Record<string, string>,
      { host: "localhost:3000" },
      { host: "LOCALHOST" },
      { host: "[::1]:80" },
      { host: "chat.internal" },
      { host: "xn--bcher-kva.example" },
      { host: "[fd00::1]:3000" },
      { origin: "http://127.0.0.1:5173" },
      { host: "chat.internal", origin: "https://chat.internal" },
    ]) {
      const response = await rawRequest(url, { method: "POST", headers });
      expect({ headers, status: response.status, body: response.body }).toEqual({
        headers,
        status: 200,
        body: "served",
      });
      expect(corsHeaders(response)).toEqual([]);
    }
    expect(handled).toBe(before + 9);
    expect(LOCAL_HOST_NAMES).toEqual(["localhost", "127.0.0.1", "[::1]"]);
  });

  it("sameOrigin: an Origin must be the server's own (scheme, name and port of its Host); no Origin passes", async () => {
    const guard = localRequestGuard({ sameOrigin: true });
    const own = createServer((req, res) => (guard(req, res) ? res.end("served") : undefined));
    await new Promise<void>((resolve) => own.listen(0, "127.0.0.1", resolve));
    const port = (own.address() as AddressInfo).port;
    const at = `http://127.0.0.1:${port}/`;
    try {
      const status = async (headers: Record<string, string>) => (await rawRequest(at, { headers })).status;
      expect(await status({})).toBe(200);
      expect(await status({ origin: `http://127.0.0.1:${port}` })).toBe(200);
      expect(await status({ host: `LocalHost:${port}`, origin: `http://localhost:${port}` })).toBe(200);
      expect(await status({ host: "localhost", origin: "http://localhost:80" })).toBe(200);
      for (const origin of [
        "http://127.0.0.1:5173",
        `http://localhost:${port}`,
        `https://127.0.0.1:${port}`,
        "http://evil.example",
      ])
        expect({ origin, status: await status({ origin }) }).toEqual({ origin, status: 403 });
    } finally {
      own.close();
    }
  });

  it("an allowed host with a scheme, a port or an unbracketed IPv6 address is refused when the guard is made", () => {
    for (const name of [
      "http://chat.internal",
      "chat.internal:3000",
      "fd00::1",
      "a b",
      "",
      "chat.internal/x",
    ])
      expect(() => localRequestGuard({ allowedHosts: [name] }), name).toThrow(InvalidSettingError);
    expect(() => localRequestGuard({ allowedHosts: ["chat.internal:3000"] })).toThrow(
      'localRequestGuard allowedHosts must be a host name or address without scheme or port (an IPv6 address in brackets), got "chat.internal:3000"',
    );
  });

  it.each([
    {
      name: "the Anthropic Messages mock",
      start: () => startAnthropicMessagesMock(() => ({ text: "scripted" })),
      path: "/v1/messages",
      body: { model: "m", messages: [{ role: "user", content: "Hi" }] },
    },
    {
      name: "the OpenAI Responses mock",
      start: async () => {
        const mock = await startOpenAiResponsesMock(() => ({ text: "scripted" }));
        return { ...mock, baseURL: mock.baseURL.replace(/\/v1$/, "") };
      },
      path: "/v1/responses",
      body: { model: "m", input: [{ role: "user", content: "Hi" }] },
    },
    {
      name: "the OpenAI Chat Completions mock",
      start: async () => {
        const mock = await startOpenAiChatMock(() => ({ text: "scripted" }));
        return { ...mock, baseURL: mock.baseURL.replace(/\/v1$/, "") };
      },
      path: "/v1/chat/completions",
      body: { model: "m", messages: [{ role: "user", content: "Hi" }] },
    },
  ])("the servers entity-tools/testing ships are guarded too: $name", async ({ start, path, body }) => {
    const mock = await start();
    try {
      const ask = (headers: Record<string, string>) =>
        rawRequest(`${mock.baseURL}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        });
      expect((await ask({ host: "evil.example" })).status).toBe(403);
      expect((await ask({ origin: "http://evil.example" })).status).toBe(403);
      expect(mock.requests).toHaveLength(0);
      expect((await ask({})).body).toContain("scripted");
    } finally {
      await mock.close();
    }
  });
});
