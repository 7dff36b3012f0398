// What the OpenAI mocks of entity-tools/testing answer besides a scripted reply, on both APIs: a scripted
// error with its status (what the provider's error then says), a script that throws (a 500 naming it), a
// body that is not JSON (a 400, and the server goes on), another path (a 404). The replies themselves are
// tested through the real @ai-sdk/openai provider (test/adapters/openai-wire.test.ts and others).
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError } from "@ai-sdk/provider";
import { generateText, jsonSchema, stepCountIs, streamText, tool, type LanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOpenAiChatMock,
  startOpenAiResponsesMock,
  type OpenAiChatMock,
  type OpenAiResponsesMock,
} from "entity-tools/testing";

/** How many requests asked to be limited once have been (the first is answered with a 429). */
let limitedOnce = 0;
const reply = (request: { readonly text: string; readonly toolResults: readonly unknown[] }) => {
  if (request.text.includes("throw")) throw new Error("the script broke");
  // What a JavaScript script (no types) may return that is no reply.
  if (request.text.includes("a string")) return "plain text" as unknown as { text: string };
  if (request.text.includes("async")) return Promise.resolve({ text: "x" }) as unknown as { text: string };
  if (request.text.includes("look it up"))
    return request.toolResults.length > 0
      ? { text: "found" }
      : { toolCalls: [{ name: "lookup", input: {} }] };
  if (request.text.includes("limit once"))
    return limitedOnce++ === 0
      ? { status: 429, error: "Rate limit reached for requests", retryAfter: 0 }
      : { text: "scripted" };
  if (request.text.includes("limit")) return { status: 429, error: "rate limit reached", retryAfter: 7 };
  return { text: "scripted" };
};

let chat: OpenAiChatMock;
let responses: OpenAiResponsesMock;
beforeAll(async () => {
  [chat, responses] = await Promise.all([startOpenAiChatMock(reply), startOpenAiResponsesMock(reply)]);
});
afterAll(() => Promise.all([chat.close(), responses.close()]));

const post = async (url: string, body: string) => {
  const response = await fetch(url, { method: "POST", headers: { "x-test": "yes" }, body });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as unknown };
};
const ask = (field: string, text: string) =>
  JSON.stringify({ model: "m", [field]: [{ role: "user", content: text }] });

describe.each([
  { name: "Chat Completions", mock: () => chat, path: "/chat/completions", field: "messages" },
  { name: "Responses", mock: () => responses, path: "/responses", field: "input" },
])("the OpenAI $name mock", ({ mock: mockOf, path, field }) => {
  const api = () => ({ mock: mockOf(), url: `${mockOf().baseURL}${path}`, field });

  it("answers a scripted error with its status and message, and a script that throws with a 500", async () => {
    const { url, field } = api();
    expect(await post(url, ask(field, "over the limit"))).toEqual({
      status: 429,
      body: {
        error: { message: "rate limit reached", type: "requests", code: "rate_limit_exceeded", param: null },
      },
    });
    expect(await post(url, ask(field, "throw"))).toMatchObject({
      status: 500,
      body: { error: { message: "Error: the script broke", type: "server_error", code: null, param: null } },
    });
  });

  it("answers a script that returns no reply (a string, a promise) with a 500 saying so, and goes on", async () => {
    const { url, field } = api();
    expect(await post(url, ask(field, "a string"))).toMatchObject({
      status: 500,
      body: { error: { message: expect.stringMatching(/must return a MockReply: \{ text \}.*not string$/) } },
    });
    expect(await post(url, ask(field, "async"))).toMatchObject({
      status: 500,
      body: { error: { message: expect.stringMatching(/synchronously, not a promise$/) } },
    });
    expect((await post(url, ask(field, "hi"))).status).toBe(200);
  });

  it("refuses a body that is not JSON with a 400 and another path with a 404, and goes on answering", async () => {
    const { url, field, mock } = api();
    const requests = mock.requests.length;
    expect((await post(url, "{not json")).status).toBe(400);
    expect((await post(`${url}/x`, ask(field, "hi"))).status).toBe(404);
    expect(mock.requests.length).toBe(requests); // neither reached the script
    expect((await post(url, ask(field, "hi"))).status).toBe(200);
    expect(mock.requests.at(-1)!.headers["x-test"]).toBe("yes");
  });
});

describe.each([
  {
    name: "Responses",
    model: () => createOpenAI({ baseURL: responses.baseURL, apiKey: "k" }).responses("m"),
  },
  { name: "Chat Completions", model: () => createOpenAI({ baseURL: chat.baseURL, apiKey: "k" }).chat("m") },
])("a scripted 429 through the real @ai-sdk/openai provider ($name)", ({ model }) => {
  it("is the provider's retryable APICallError with OpenAI's rate-limit code and the retry-after header", async () => {
    const error = await generateText({ model: model(), prompt: "over the limit", maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      statusCode: 429,
      message: "rate limit reached",
      isRetryable: true,
      data: { error: { type: "requests", code: "rate_limit_exceeded" } },
      responseHeaders: expect.objectContaining({ "retry-after": "7" }) as unknown,
    });
  });

  it("is retried by the AI SDK after the retry-after it sends, and the retry is answered", async () => {
    limitedOnce = 0;
    const result = await generateText({ model: model(), prompt: "limit once", maxRetries: 1 });
    expect(result.text).toBe("scripted");
    expect(limitedOnce).toBe(2); // the 429, then the retry
  });
});

describe("the OpenAI Responses mock and namespaced tools (as Codex offers an MCP server's)", () => {
  it("offers a namespace's functions by name, and a call to one carries its namespace, streamed or not", async () => {
    const body = (stream: boolean) =>
      JSON.stringify({
        model: "m",
        stream,
        tools: [
          { type: "function", name: "plain" },
          { type: "namespace", name: "mcp__shop", tools: [{ type: "function", name: "searchCustomer" }] },
        ],
        input: [{ role: "user", content: "call searchCustomer" }],
      });
    const mock = await startOpenAiResponsesMock(() => ({
      toolCalls: [
        { name: "searchCustomer", input: { name: "John" } },
        { name: "plain", input: {} },
      ],
    }));
    try {
      const url = `${mock.baseURL}/responses`;
      const whole = (await (await fetch(url, { method: "POST", body: body(false) })).json()) as {
        output: { name: string; namespace?: string }[];
      };
      const streamed = await (await fetch(url, { method: "POST", body: body(true) })).text();
      expect(mock.requests[0]!.offeredTools).toEqual(["plain", "searchCustomer"]);
      expect(whole.output.map((o) => [o.name, o.namespace])).toEqual([
        ["searchCustomer", "mcp__shop"],
        ["plain", undefined],
      ]);
      const done = streamed
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice(6)) as { type: string; item?: { namespace?: string } })
        .filter((event) => event.type === "response.output_item.done");
      expect(done.map((event) => event.item?.namespace)).toEqual(["mcp__shop", undefined]);
    } finally {
      await mock.close();
    }
  });
});

describe.each([
  {
    name: "Responses",
    model: (): LanguageModel => createOpenAI({ baseURL: responses.baseURL, apiKey: "k" }).responses("m"),
  },
  {
    name: "Chat Completions",
    model: (): LanguageModel => createOpenAI({ baseURL: chat.baseURL, apiKey: "k" }).chat("m"),
  },
])("the OpenAI $name mock's ids, through the real @ai-sdk/openai provider", ({ model }) => {
  // The API gives every response and call an id of its own. Several conversations go to one mock (the
  // codex binary runs several threads against one; a run restarted on a new thread is another), and two
  // of them with one id would be taken for one: one response, or one call and its result.
  it("gives each conversation's responses and calls ids no other conversation to the mock got, streamed or not", async () => {
    const tools = {
      lookup: tool({ inputSchema: jsonSchema<object>({ type: "object" }), execute: () => "it" }),
    };
    const ask = { model: model(), prompt: "look it up", tools, stopWhen: stepCountIs(2), maxRetries: 0 };
    const whole = [await generateText(ask), await generateText(ask)];
    const streamed = streamText(ask);
    const steps = [...whole.flatMap((r) => r.steps), ...(await streamed.steps)];

    expect(steps.map((step) => step.text)).toEqual(["", "found", "", "found", "", "found"]);
    const responseIds = steps.map((step) => step.response.id);
    const callIds = steps.flatMap((step) => step.toolCalls.map((c) => c.toolCallId));
    expect([new Set(responseIds).size, new Set(callIds).size]).toEqual([6, 3]);
  });
});

describe("the OpenAI Responses mock's stored responses, through the real @ai-sdk/openai provider", () => {
  // The API stores what it answered (unless a request says `store: false`): a request may send an earlier
  // item as a reference to its id, or continue a response by its id. A script reads what the API reads.
  let stored: OpenAiResponsesMock;
  beforeAll(async () => {
    stored = await startOpenAiResponsesMock(({ text }) => {
      if (text.includes("look it up")) return { toolCalls: [{ name: "lookup", input: {} }] };
      return text.includes("hello there") ? { text: "you heard me" } : { text: "hello there" };
    });
  });
  afterAll(() => stored.close());
  const model = () => createOpenAI({ baseURL: stored.baseURL, apiKey: "k" }).responses("m");

  it("reads an earlier answer the provider sends as an item reference (a conversation's next turn)", async () => {
    const first = await generateText({ model: model(), prompt: "hi", maxRetries: 0 });
    const next = await generateText({
      model: model(),
      messages: [
        { role: "user", content: "hi" },
        ...first.response.messages,
        { role: "user", content: "again" },
      ],
      maxRetries: 0,
    });
    expect(stored.requests.at(-1)!.body.input).toContainEqual({ type: "item_reference", id: "msg_1" });
    expect([first.text, next.text]).toEqual(["hello there", "you heard me"]);
  });

  it("reads the response a request continues (previous_response_id); one not stored is the API's 400", async () => {
    const lookup = { lookup: tool({ inputSchema: jsonSchema<object>({ type: "object" }) }) };
    const ask = (prompt: string, openai: Record<string, string | boolean>) =>
      generateText({ model: model(), prompt, tools: lookup, providerOptions: { openai }, maxRetries: 0 });
    const kept = await ask("look it up", {});
    await ask("what did you call?", { previousResponseId: kept.response.id });
    expect(stored.requests.at(-1)!.calledTools).toEqual(["lookup"]);

    const unstored = await ask("look it up", { store: false });
    const requests = stored.requests.length;
    const error = await ask("what did you call?", { previousResponseId: unstored.response.id }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(APICallError);
    expect(error).toMatchObject({
      statusCode: 400,
      message: `Previous response with id '${unstored.response.id}' not found.`,
    });
    expect(JSON.parse((error as APICallError).responseBody!)).toEqual({
      error: {
        message: `Previous response with id '${unstored.response.id}' not found.`,
        type: "invalid_request_error",
        param: "previous_response_id",
        code: "previous_response_not_found",
      },
    });
    expect(stored.requests.length).toBe(requests); // refused before any script read it
  });

  it("refuses a reference to an item it never answered with the API's 404", async () => {
    const error = await generateText({
      model: model(),
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "hello", providerOptions: { openai: { itemId: "msg_elsewhere" } } },
          ],
        },
        { role: "user", content: "again" },
      ],
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APICallError);
    expect(error).toMatchObject({ statusCode: 404, message: "Item with id 'msg_elsewhere' not found." });
    expect(JSON.parse((error as APICallError).responseBody!)).toMatchObject({
      error: { type: "invalid_request_error", param: "input", code: null },
    });
    // A request that is not to be stored is told why, as the API tells it.
    const raw = await post(
      `${stored.baseURL}/responses`,
      JSON.stringify({ model: "m", store: false, input: [{ type: "item_reference", id: "msg_elsewhere" }] }),
    );
    expect(raw.status).toBe(404);
    expect(raw.body).toMatchObject({
      error: {
        message: expect.stringMatching(
          /^Item with id 'msg_elsewhere' not found\. Items are not persisted when `store` is set to false\./,
        ),
      },
    });
  });

  it("reads a string input as one user message, as the API does, and keeps it with the response", async () => {
    const first = await post(
      `${stored.baseURL}/responses`,
      JSON.stringify({ model: "m", input: "look it up" }),
    );
    const [call] = (first.body as { output: { type: string; name: string; call_id: string }[] }).output;
    expect(call).toMatchObject({ type: "function_call", name: "lookup" });
    expect(stored.requests.at(-1)!.text).toContain("look it up");

    const next = await post(
      `${stored.baseURL}/responses`,
      JSON.stringify({
        model: "m",
        previous_response_id: (first.body as { id: string }).id,
        input: [{ type: "function_call_output", call_id: call!.call_id, output: "it is here" }],
      }),
    );
    expect(next.status).toBe(200);
    const request = stored.requests.at(-1)!;
    expect([request.calledTools, request.toolResults]).toEqual([["lookup"], [{ text: "it is here" }]]);
    expect(request.text).toContain("look it up");
  });
});
