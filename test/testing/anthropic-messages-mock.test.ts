// What the Anthropic Messages mock of entity-tools/testing answers besides a scripted reply: a scripted
// error reaches a caller of the real @ai-sdk/anthropic provider as the provider's own error (its status and
// message, whole and streamed), in the API's error body; a script that throws is a 500, a body that is not
// JSON a 400, as the OpenAI mocks answer them (test/testing/openai-mocks.test.ts).
import { createAnthropic } from "@ai-sdk/anthropic";
import { APICallError } from "@ai-sdk/provider";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicMessagesMock, type AnthropicMessagesMock } from "entity-tools/testing";

let mock: AnthropicMessagesMock;
beforeAll(async () => {
  mock = await startAnthropicMessagesMock((request) => {
    if (request.text.includes("throw")) throw new Error("the script broke");
    if (request.text.includes("limit")) return { status: 429, error: "rate limit reached", retryAfter: 3 };
    if (request.text.includes("down")) return { status: 500, error: "internal trouble" };
    if (request.text.includes("busy")) return { status: 529, error: "overloaded" };
    if (request.text.includes("look it up")) return { toolCalls: [{ name: "lookup", input: { q: 1 } }] };
    return { text: "scripted" };
  });
});
afterAll(() => mock.close());

const model = () => createAnthropic({ baseURL: `${mock.baseURL}/v1`, apiKey: "test-key" })("claude-mock");

/** What the caller of `generateText` (or of `streamText`, from its stream) gets for `prompt`. */
async function failureOf(prompt: string, streamed: boolean): Promise<unknown> {
  if (!streamed)
    return generateText({ model: model(), prompt, maxRetries: 0 }).then(
      () => undefined,
      (e) => e,
    );
  for await (const part of streamText({ model: model(), prompt, maxRetries: 0, onError: () => {} })
    .fullStream)
    if (part.type === "error") return part.error;
  return undefined;
}

describe("the Anthropic Messages mock's scripted errors", () => {
  it.each([
    { status: 429, prompt: "over the limit", message: "rate limit reached", streamed: false },
    { status: 429, prompt: "over the limit", message: "rate limit reached", streamed: true },
    { status: 500, prompt: "the API is down", message: "internal trouble", streamed: false },
    { status: 500, prompt: "the API is down", message: "internal trouble", streamed: true },
  ])("a $status reaches the caller as the provider's APICallError (streamed: $streamed)", async (c) => {
    const error = await failureOf(c.prompt, c.streamed);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: c.status, message: c.message, isRetryable: true });
    // A scripted retryAfter is the retry-after header the API sends with a 429 (the AI SDK waits for it).
    expect((error as APICallError).responseHeaders?.["retry-after"]).toBe(c.status === 429 ? "3" : undefined);
  });

  it("sends the API's error body: the type for the status; a script that throws is a 500, a body not JSON a 400", async () => {
    const post = async (body: string) => {
      const response = await fetch(`${mock.baseURL}/v1/messages`, { method: "POST", body });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const ask = (text: string) => JSON.stringify({ model: "m", messages: [{ role: "user", content: text }] });
    const error = (type: string, message: string) => ({ type: "error", error: { type, message } });
    expect(await post(ask("over the limit"))).toEqual({
      status: 429,
      body: error("rate_limit_error", "rate limit reached"),
    });
    expect(await post(ask("busy"))).toEqual({ status: 529, body: error("overloaded_error", "overloaded") });
    expect(await post(ask("throw"))).toEqual({
      status: 500,
      body: error("api_error", "Error: the script broke"),
    });
    expect(await post("{not json")).toEqual({
      status: 400,
      body: error("invalid_request_error", "The body is not JSON"),
    });
    expect((await post(ask("hi"))).status).toBe(200);
  });
});

describe("the Anthropic Messages mock's ids", () => {
  // The API gives every message and tool use an id of its own. The mock numbers them by request, as the
  // OpenAI mocks do, not by conversation: Claude Code sends several conversations to one mock, which would
  // give two of its messages one id. Two mocks (a restarted one) number from 1 again.
  it("gives each request's message and tool uses ids no other request to the mock got, streamed or not", async () => {
    const tools = { lookup: tool({ inputSchema: jsonSchema<{ q: number }>({ type: "object" }) }) };
    const ask = { model: model(), prompt: "look it up", tools, maxRetries: 0 };
    const whole = [await generateText(ask), await generateText(ask)];
    const streamed = streamText(ask);
    const ids = [
      ...whole.flatMap((r) => [r.response.id, ...r.toolCalls.map((c) => c.toolCallId)]),
      (await streamed.response).id,
      ...(await streamed.toolCalls).map((c) => c.toolCallId),
    ];
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });
});
