// What a run's usage and cost are for what the real providers report over HTTP: OpenAI's cached and
// reasoning tokens, Anthropic's cache reads and cache writes (priced apart), whole and streamed.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../fixtures/store/register.js";
import { PromptRunner, readRunLog, type RunFinishedEvent } from "entity-tools";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { memoryTracer } from "../support/span-tree.js";
import { tempDir } from "../support/temp-dir.js";

const ANTHROPIC_USAGE = {
  input_tokens: 100,
  cache_creation_input_tokens: 2_000,
  cache_read_input_tokens: 5_000,
  output_tokens: 50,
};

let server: Server;
let baseURL: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const streamed = (JSON.parse(body) as { stream?: boolean }).stream === true;
      if (req.url === "/v1/chat/completions") return openAIChat(res, streamed);
      if (req.url === "/v1/responses") return openAIResponses(res, streamed);
      const message = { id: "msg_1", type: "message", role: "assistant", model: "claude-mock" };
      if (body.includes("tool_result")) {
        res.statusCode = 500; // the step after a call fails: the run fails with the first step paid for
        res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: "down" } }));
        return;
      }
      const content = body.includes("find Smith")
        ? [{ type: "tool_use", id: "toolu_1", name: "findCustomers", input: { text: "Smith" } }]
        : [{ type: "text", text: "done" }];
      if (!streamed) {
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({
            ...message,
            content,
            stop_reason: "end_turn",
            stop_sequence: null,
            usage: ANTHROPIC_USAGE,
          }),
        );
        return;
      }
      res.setHeader("content-type", "text/event-stream");
      const events: [string, unknown][] = [
        [
          "message_start",
          {
            type: "message_start",
            message: { ...message, content: [], usage: { ...ANTHROPIC_USAGE, output_tokens: 1 } },
          },
        ],
        [
          "content_block_start",
          { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        ],
        [
          "content_block_delta",
          { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "done" } },
        ],
        ["content_block_stop", { type: "content_block_stop", index: 0 }],
        [
          "message_delta",
          {
            type: "message_delta",
            delta: { stop_reason: "end_turn", stop_sequence: null },
            usage: { output_tokens: 50 },
          },
        ],
        ["message_stop", { type: "message_stop" }],
      ];
      res.end(events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join(""));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

/** OpenAI's usage: 300 of 1,000 prompt tokens from the cache, 40 of 90 completion tokens reasoning. */
const CHAT_USAGE = {
  prompt_tokens: 1_000,
  completion_tokens: 90,
  total_tokens: 1_090,
  prompt_tokens_details: { cached_tokens: 300 },
  completion_tokens_details: { reasoning_tokens: 40 },
};

function sse(res: ServerResponse, chunks: readonly unknown[]): void {
  res.setHeader("content-type", "text/event-stream");
  res.end(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n");
}

function openAIChat(res: ServerResponse, streamed: boolean): void {
  const head = { id: "chatcmpl-1", created: 0, model: "gpt-mock" };
  if (!streamed) {
    res.setHeader("content-type", "application/json");
    const message = { role: "assistant", content: "done" };
    res.end(
      JSON.stringify({
        ...head,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: "stop" }],
        usage: CHAT_USAGE,
      }),
    );
    return;
  }
  const chunk = { ...head, object: "chat.completion.chunk" };
  sse(res, [
    { ...chunk, choices: [{ index: 0, delta: { role: "assistant", content: "done" }, finish_reason: null }] },
    { ...chunk, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
    { ...chunk, choices: [], usage: CHAT_USAGE }, // usage comes only at the end of the stream
  ]);
}

function openAIResponses(res: ServerResponse, streamed: boolean): void {
  const usage = {
    // The same counts under the Responses API's names.
    input_tokens: CHAT_USAGE.prompt_tokens,
    output_tokens: CHAT_USAGE.completion_tokens,
    total_tokens: CHAT_USAGE.total_tokens,
    input_tokens_details: CHAT_USAGE.prompt_tokens_details,
    output_tokens_details: CHAT_USAGE.completion_tokens_details,
  };
  const item = {
    type: "message",
    id: "msg_1",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: "done", annotations: [] }],
  };
  const response = {
    id: "resp_1",
    object: "response",
    created_at: 0,
    model: "gpt-mock",
    status: "completed",
    output: [item],
    usage,
  };
  if (!streamed) {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(response));
    return;
  }
  sse(res, [
    { type: "response.created", response: { ...response, status: "in_progress", output: [], usage: null } },
    {
      type: "response.output_item.added",
      output_index: 0,
      item: { ...item, status: "in_progress", content: [] },
    },
    {
      type: "response.output_text.delta",
      item_id: "msg_1",
      output_index: 0,
      content_index: 0,
      delta: "done",
    },
    { type: "response.output_item.done", output_index: 0, item },
    { type: "response.completed", response },
  ]);
}

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const PRICES = { input: 3, cachedInput: 0.3, cacheWriteInput: 3.75, output: 15 }; // USD per million tokens

describe("a run on Anthropic that reads and writes the prompt cache", () => {
  it.each([false, true])(
    "counts the cache writes and prices them at cacheWriteInput (streamed: %s)",
    async (streamed) => {
      const model = createAnthropic({ baseURL, apiKey: "k" })("claude-mock");
      const { tracer, spans } = memoryTracer();
      const lines: string[] = [];
      const log = (line: string) => lines.push(line);
      const runner = new PromptRunner({ model })
        .withPricing(PRICES)
        .withTelemetry({ tracer })
        .withLogger({ info: log, warn: log, error: log });
      const run = streamed ? await runner.stream("hi").result : await runner.run("hi");
      expect(run.usage).toEqual({
        inputTokens: 7_100, // Anthropic's input_tokens are the uncached rest: the SDK adds both cache counts
        outputTokens: 50,
        cachedInputTokens: 5_000,
        reasoningTokens: 0,
        cacheWriteInputTokens: 2_000,
      });
      const cost = (100 * 3 + 5_000 * 0.3 + 2_000 * 3.75 + 50 * 15) / 1e6; // what Anthropic bills
      expect(run.cost!.total).toBeCloseTo(cost, 12);
      expect(run.cost!.perStep.map((s) => s.cost)).toEqual([run.cost!.total]);
      // The step's span and the run's carry the cache writes too (the GenAI conventions' attribute).
      expect(spans().map((s) => [s.name, s.attributes["gen_ai.usage.cache_creation.input_tokens"]])).toEqual([
        ["chat claude-mock", 2_000],
        ["entity_tools.run", 2_000],
      ]);
      // C20: the debug log prints the cache writes beside the cached input tokens.
      expect(lines.find((l) => l.includes("step 1"))).toContain(
        "tokens in 7100 (cached 5000, cache writes 2000)",
      );
    },
  );

  it("without cacheWriteInput, cache writes are priced as input", async () => {
    const model = createAnthropic({ baseURL, apiKey: "k" })("claude-mock");
    const run = await new PromptRunner({ model })
      .withPricing({ input: 3, cachedInput: 0.3, output: 15 })
      .run("hi");
    expect(run.cost!.total).toBeCloseTo((2_100 * 3 + 5_000 * 0.3 + 50 * 15) / 1e6, 12);
  });
});

describe("a run on OpenAI with cached and reasoning tokens", () => {
  const api = (kind: "chat" | "responses") => {
    const openai = createOpenAI({ baseURL, apiKey: "k" });
    return kind === "chat" ? openai.chat("gpt-mock") : openai.responses("gpt-mock");
  };
  it.each([
    { kind: "chat", streamed: false },
    { kind: "chat", streamed: true },
    { kind: "responses", streamed: false },
    { kind: "responses", streamed: true },
  ] as const)("$kind (streamed: $streamed): cached input at its price, reasoning counted once", async (c) => {
    const runner = new PromptRunner({ model: api(c.kind) }).withPricing(PRICES);
    const run = c.streamed ? await runner.stream("hi").result : await runner.run("hi");
    expect(run.usage).toEqual({
      inputTokens: 1_000,
      outputTokens: 90,
      cachedInputTokens: 300,
      reasoningTokens: 40,
    });
    expect(run.cost!.total).toBeCloseTo((700 * 3 + 300 * 0.3 + 90 * 15) / 1e6, 12);
  });
});

describe("a run that fails after a step was paid for", () => {
  it("reports the paid step's tokens and cost on RunFinished, on the run's span and in the run log", async () => {
    const logs = tempDir("cost-wire-");
    const model = createAnthropic({ baseURL, apiKey: "k" })("claude-mock");
    const { tracer, spans } = memoryTracer();
    const finished: RunFinishedEvent[] = [];
    const failure = await new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
      .withTools(new CustomerSearchTools())
      .withPricing(PRICES)
      .withTelemetry({ tracer })
      .withRunLog(logs)
      .withObserver((e) => e.type === "RunFinished" && finished.push(e))
      .run("find Smith")
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(failure).toBeInstanceOf(Error);
    const paid = (100 * 3 + 5_000 * 0.3 + 2_000 * 3.75 + 50 * 15) / 1e6;
    expect(finished.map((e) => [e.status, e.usage.inputTokens, e.usage.cacheWriteInputTokens])).toEqual([
      ["failed", 7_100, 2_000],
    ]);
    expect(finished[0]!.cost!.total).toBeCloseTo(paid, 12);
    const run = spans().find((s) => s.name === "entity_tools.run")!;
    expect(run.attributes["gen_ai.usage.input_tokens"]).toBe(7_100);
    expect(run.attributes["gen_ai.usage.cache_creation.input_tokens"]).toBe(2_000);
    // The run log's response record keeps the cache writes beside the step's cost.
    const [file] = readdirSync(logs);
    const { records } = readRunLog(readFileSync(join(logs, file!), "utf8"));
    const response = records.find((r) => r.type === "response") as { usage?: object; cost?: number };
    expect(response.usage).toMatchObject({ inputTokens: 7_100, cacheWriteInputTokens: 2_000 });
    expect(response.cost).toBeCloseTo(paid, 12);
  });
});
