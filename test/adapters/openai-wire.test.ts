import "../fixtures/store/register.js";
import { createOpenAI } from "@ai-sdk/openai";
import { wrapLanguageModel } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool, PromptRunner, TOOL_NAME_PATTERN, type AiSdkAdapterSettings } from "entity-tools";
import { RESPONSES_MOCK_USAGE } from "entity-tools/testing";
import { sdkInternals } from "../../src/adapters/sdk-internals.js";
import { SpendAnswer } from "../fixtures/store/answers.js";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { startOpenAiMock, type OpenAiMock } from "../support/openai-mocks.js";

let mock: OpenAiMock | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await mock?.close();
});

const echo = defineTool<{ text: string }>({
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }) => text,
});

const seedReplies = [
  { toolCalls: [{ name: "searchCustomer", input: { name: "John Smith" } }] },
  { toolCalls: [{ name: "customer_c123_getAverageSpend", input: {} }] },
  { text: '{"customerName":"John Smith","averageMonthlySpend":46.83,"currency":"USD"}' },
];

const toolNamesOf = (body: Record<string, unknown>) =>
  ((body.tools as { name?: string; function?: { name: string } }[]) ?? []).map(
    (t) => t.name ?? t.function?.name,
  );

describe("through @ai-sdk/openai against the local OpenAI mocks", () => {
  for (const api of ["chat", "responses"] as const) {
    it(`the seed flow over the ${api} API: names and schemas accepted, results sent back`, async () => {
      mock = await startOpenAiMock(api, seedReplies);
      const openai = createOpenAI({ baseURL: mock.baseURL, apiKey: "test-key" });
      const model = api === "chat" ? openai.chat("gpt-test") : openai.responses("gpt-test");
      const answer = await new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
        .withTools(new CustomerSearchTools())
        .withToolProviderDiscovery()
        .createObject(SpendAnswer, "What is John Smith's average spend?");

      expect(answer).toBeInstanceOf(SpendAnswer);
      expect(answer.averageMonthlySpend).toBe(46.83);
      expect(mock.requests).toHaveLength(3); // each at its API's endpoint: the mock answers no other
      const offered = mock.requests.map((r) => toolNamesOf(r.body));
      expect(offered[0]).toEqual(["searchCustomer", "findCustomers"]);
      expect(offered[1]).toEqual([
        "searchCustomer",
        "findCustomers",
        "customer_c123_getAverageSpend",
        "customer_c123_recentOrders",
      ]);
      for (const name of offered.flat()) expect(name).toMatch(TOOL_NAME_PATTERN);
      const lastRequest = JSON.stringify(mock.requests[2]!.body);
      expect(lastRequest).toContain('{\\"amount\\":46.83,\\"currency\\":\\"USD\\"}');
      expect(lastRequest).not.toContain("s3cret");
    });
  }

  for (const api of ["chat", "responses"] as const) {
    it(`streams over the ${api} API: text as it comes, a tool discovered mid-stream offered at the next step`, async () => {
      mock = await startOpenAiMock(api, [
        { toolCalls: [{ name: "searchCustomer", input: { name: "John Smith" } }] },
        { toolCalls: [{ name: "customer_c123_getAverageSpend", input: {} }] },
        { text: "John spends 46.83 USD a month." },
      ]);
      const openai = createOpenAI({ baseURL: mock.baseURL, apiKey: "test-key" });
      const model = api === "chat" ? openai.chat("gpt-test") : openai.responses("gpt-test");
      const stream = new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
        .withTools(new CustomerSearchTools())
        .withToolProviderDiscovery()
        .stream("What does John spend?");
      const deltas: string[] = [];
      const calls: string[] = [];
      for await (const part of stream.parts) {
        if (part.type === "text-delta") deltas.push(part.text);
        if (part.type === "tool-call") calls.push(part.toolName);
      }
      const run = await stream.result;
      expect(mock.requests.every((r) => r.body.stream === true)).toBe(true);
      expect(calls).toEqual(["searchCustomer", "customer_c123_getAverageSpend"]);
      expect(deltas).toEqual(["John ", "spends ", "46.83 ", "USD ", "a ", "month."]);
      expect(toolNamesOf(mock.requests[1]!.body)).toContain("customer_c123_getAverageSpend");
      expect(run.result).toBe("John spends 46.83 USD a month.");
      expect(run.usage).toEqual({
        inputTokens: 3 * RESPONSES_MOCK_USAGE.inputTokens,
        outputTokens: 3 * RESPONSES_MOCK_USAGE.outputTokens,
        cachedInputTokens: 0,
        reasoningTokens: 0,
      });
    });
  }

  for (const [api, streamed] of [
    ["chat", false],
    ["responses", false],
    ["chat", true],
    ["responses", true],
  ] as const) {
    it(`over the ${api} API${streamed ? ", streamed" : ""}, provider options, headers and the user's middleware reach every request, also of a run whose first step is built by us`, async () => {
      mock = await startOpenAiMock(api, [
        { toolCalls: [{ name: "echo", input: { text: "a" } }] },
        { text: "done" },
        { toolCalls: [{ name: "echo", input: { text: "b" } }] },
        { text: "done again" },
      ]);
      const openai = createOpenAI({ baseURL: mock.baseURL, apiKey: "test-key" });
      const model = wrapLanguageModel({
        model: api === "chat" ? openai.chat("gpt-test") : openai.responses("gpt-test"),
        middleware: {
          specificationVersion: "v3",
          transformParams: async ({ params }) => ({ ...params, maxOutputTokens: 77 }),
        },
      });
      const settings: AiSdkAdapterSettings = {
        maxRetries: 0,
        temperature: 0.25,
        headers: { "x-tenant": `wire-${api}-${streamed}` },
        providerOptions: { openai: { user: `tenant-${api}` } },
      };
      const { internals } = await sdkInternals();
      const convert = vi.spyOn(internals!, "convert");
      const runOnce = async () => {
        const runner = new PromptRunner({ model, modelSettings: settings }).withTools(echo);
        return streamed ? runner.stream("go").result : runner.run("go");
      };
      const first = await runOnce();
      const converted = convert.mock.calls.length; // the first run's second step only
      const second = await runOnce();
      expect([first.result, second.result]).toEqual(["done", "done again"]);
      expect(converted).toBe(1);
      expect(convert.mock.calls[1]![0]).toEqual([{ role: "user", content: "go" }]); // run 2's first step
      expect(mock.requests).toHaveLength(4);
      for (const { body, headers } of mock.requests) {
        expect(body).toMatchObject({ temperature: 0.25, user: `tenant-${api}` });
        expect(body[api === "chat" ? "max_tokens" : "max_output_tokens"]).toBe(77);
        expect(headers["x-tenant"]).toBe(`wire-${api}-${streamed}`);
        expect(body.stream === true).toBe(streamed);
        // the user agent the SDK sent at the first run's first step (generateText adds its own to it)
        expect(headers["user-agent"]).toBe(mock.requests[0]!.headers["user-agent"]);
      }
      if (!streamed) expect(mock.requests[0]!.headers["user-agent"]).toMatch(/\bai\//);
      expect(mock.requests[2]!.body).toEqual(mock.requests[0]!.body);
    });
  }
});
