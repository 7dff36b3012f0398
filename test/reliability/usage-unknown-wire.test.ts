// A model behind a proxy that strips the usage (an OpenAI-compatible server that sends none), with pricing:
// the run's cost must say it is unknown rather than read $0, as if the calls were free. Over HTTP through
// the real `@ai-sdk/openai`, whole and streamed, on both lanes (ai 6 and ai 7 read usage apart).
import { createOpenAI } from "@ai-sdk/openai";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import "../fixtures/store/register.js";
import { PromptRunner, readRunLog, type ToolLoopEvent } from "entity-tools";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";

const USAGE = { prompt_tokens: 1_000, completion_tokens: 90, total_tokens: 1_090 };

let server: Server;
let host: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const request = JSON.parse(body) as { stream?: boolean; messages: { role: string }[] };
      // A first request for Smith calls a tool; the request with its result is answered.
      const called = request.messages.some((m) => m.role === "tool");
      const delta = body.includes("find Smith") && !called ? toolCall : { content: "done" };
      chat(res, request.stream === true, delta, req.url?.startsWith("/stripped/") ? undefined : USAGE);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const toolCall = {
  tool_calls: [
    {
      index: 0,
      id: "call_1",
      type: "function",
      function: { name: "findCustomers", arguments: '{"text":"Smith"}' },
    },
  ],
};

/** A Chat Completions answer, with `usage` or (what a stripping proxy sends) none at all. */
function chat(res: ServerResponse, streamed: boolean, delta: object, usage: object | undefined): void {
  const head = { id: "chatcmpl-1", created: 0, model: "gpt-proxy" };
  const finish = "tool_calls" in delta ? "tool_calls" : "stop";
  if (!streamed) {
    res.setHeader("content-type", "application/json");
    const message = { role: "assistant", content: null, ...delta };
    const choices = [{ index: 0, message, finish_reason: finish }];
    res.end(JSON.stringify({ ...head, object: "chat.completion", choices, ...(usage ? { usage } : {}) }));
    return;
  }
  const chunk = { ...head, object: "chat.completion.chunk" };
  const chunks: object[] = [
    { ...chunk, choices: [{ index: 0, delta: { role: "assistant", ...delta }, finish_reason: null }] },
    { ...chunk, choices: [{ index: 0, delta: {}, finish_reason: finish }] },
    ...(usage ? [{ ...chunk, choices: [], usage }] : []),
  ];
  res.setHeader("content-type", "text/event-stream");
  res.end(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n");
}

const PRICES = { input: 3, output: 15 }; // USD per million tokens

/** A run of `find Smith` (two model calls) through the server's `path`, priced or not. */
async function play(path: "stripped" | "reporting", streamed: boolean, priced = true) {
  const logs = mkdtempSync(join(tmpdir(), "usage-unknown-"));
  onTestFinished(() => rmSync(logs, { recursive: true, force: true }));
  const model = createOpenAI({ baseURL: `${host}/${path}/v1`, apiKey: "k" }).chat("gpt-proxy");
  const events: ToolLoopEvent[] = [];
  const lines: string[] = [];
  const log = (line: string) => lines.push(line.replace(/^\[entity-tools \S+\] /, ""));
  const base = new PromptRunner({ model })
    .withTools(new CustomerSearchTools())
    .withRunLog(logs)
    .withLogger({ info: log, warn: log, error: log })
    .withObserver((e) => events.push(e));
  const runner = priced ? base.withPricing(PRICES) : base;
  const run = streamed ? await runner.stream("find Smith").result : await runner.run("find Smith");
  const [file] = readdirSync(logs);
  const { records } = readRunLog(readFileSync(join(logs, file!), "utf8"));
  const warnings = events.flatMap((e) => (e.type === "ModelWarning" ? [e.message] : []));
  const responded = events.flatMap((e) => (e.type === "ModelResponded" ? [e] : []));
  return { run, records, warnings, responded, lines };
}

const UNKNOWN =
  'Model "gpt-proxy" reported no token usage (no input or output tokens) at step 1, so the cost of that ' +
  "call is unknown, not 0: cost.total leaves out each call without usage (cost.unknownCostSteps counts " +
  "them), and usage counts its tokens as 0. Said once per run for each model.";

describe("C18 a proxy that strips the usage, with pricing", () => {
  it.each([false, true])(
    "each call's cost is unknown, not 0 (free): one ModelWarning, the run log and the debug log say so (streamed: %s)",
    async (streamed) => {
      const { run, records, warnings, responded, lines } = await play("stripped", streamed);
      expect(run.usage).toMatchObject({ inputTokens: 0, outputTokens: 0 }); // not reported: counted as 0
      expect(run.cost).toEqual({
        total: 0,
        unknownCostSteps: 2,
        perStep: [1, 2].map((iteration) => ({
          iteration,
          modelId: "gpt-proxy",
          usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
        })),
        perProvider: [],
      });
      expect(warnings).toEqual([UNKNOWN]); // once in the run, though both calls had none
      expect(responded.map((e) => e.usageUnknown)).toEqual([true, true]);
      const responses = records.filter((r) => r.type === "response");
      expect(responses.map((r) => [r.costUnknown, r.cost])).toEqual([
        [true, undefined],
        [true, undefined],
      ]);
      expect(records.find((r) => r.type === "end")).toMatchObject({ cost: 0, costUnknown: true });
      expect(lines.filter((l) => l.startsWith("step 1"))).toEqual([
        expect.stringMatching(
          /^step 1 \(gpt-proxy\): \d+ ms, tokens in 0 \(cached 0\) out 0 \(reasoning 0\) \(the provider reported no usage: counted as 0\), tool calls: findCustomers$/,
        ),
        `step 1: ${UNKNOWN}`,
      ]);
    },
  );

  it("C22 without pricing, one warning that the usage undercounts; no cost in the run log", async () => {
    const { run, warnings, responded, records } = await play("stripped", false, false);
    expect(run.cost).toBeUndefined();
    expect(warnings).toEqual([
      'Model "gpt-proxy" reported no token usage (no input or output tokens) at step 1: usage counts that ' +
        "call's tokens as 0, so the run's usage is less than it spent (ModelResponded.usageUnknown marks each " +
        "such call). Said once per run for each model.",
    ]);
    expect(responded.map((e) => e.usageUnknown)).toEqual([true, true]);
    expect(records.filter((r) => r.type === "response" && r.costUnknown !== undefined)).toEqual([]);
  });

  it.each([false, true])(
    "a provider that reports its usage: every cost known, no warning (streamed: %s)",
    async (streamed) => {
      const { run, warnings, responded, records } = await play("reporting", streamed);
      expect(run.cost!.total).toBeCloseTo((2 * (1_000 * 3 + 90 * 15)) / 1e6, 12);
      expect(run.cost!.unknownCostSteps).toBeUndefined();
      expect(run.cost!.perStep.map((s) => s.cost !== undefined)).toEqual([true, true]);
      expect(warnings).toEqual([]);
      expect(responded.map((e) => "usageUnknown" in e)).toEqual([false, false]);
      expect(records.find((r) => r.type === "end")).not.toHaveProperty("costUnknown");
    },
  );
});
