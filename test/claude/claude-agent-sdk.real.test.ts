// The real Claude Code binary from the Claude Agent SDK's npm package (pinned dev dependency), its model
// requests sent to a local Anthropic Messages mock on 127.0.0.1. About a second per process: each test
// starts as few as its behaviour needs.
import "../fixtures/store/register.js";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  defineTool,
  ModelCallError,
  PromptRunner,
  readRunLog,
  runView,
  ToolLoopAbortedError,
  type ConversationNewTools,
  type ToolLoopEvent,
} from "entity-tools";
import { ClaudeAgentSdkAdapter, ClaudeAgentSdkError, type ClaudeAgentSdkOptions } from "entity-tools/claude";
import { SpendAnswer } from "../fixtures/store/answers.js";
import { Customer } from "../fixtures/store/customer.js";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { OrderRepository } from "../fixtures/store/repositories.js";
import { supportPrompt } from "../fixtures/store/support-prompt.js";
import { claudeCodeUnavailable } from "../support/claude-code.js";
import { processesIn } from "../support/processes-in.js";
import { ONE_CALL_THEN_ANSWER, readStream } from "../support/streamed-run.js";
import * as counting from "../support/stalled-reader.js";
import { memoryTracer } from "../support/span-tree.js";
import { spendChartWithPdf } from "../support/spend-chart.js";
import { TINY_PNG_BASE64 } from "../support/tiny-png.js";
import {
  MESSAGES_MOCK_USAGE,
  startAnthropicMessagesMock,
  type AnthropicMessagesMock,
  type MockReply,
  type MessagesRequest,
} from "entity-tools/testing";
import { tempDir } from "../support/temp-dir.js";

const unavailable = claudeCodeUnavailable();
if (unavailable) console.warn(`Skipping the Claude Code tests: ${unavailable}.`);

let mock: AnthropicMessagesMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** What the model sees for one of our tools. */
const m = (name: string) => `mcp__tools__${name}`;

async function claude(
  reply: (request: MessagesRequest) => MockReply,
  newTools?: ConversationNewTools,
  extra: ClaudeAgentSdkOptions = {},
) {
  mock = mock ?? (await startAnthropicMessagesMock(reply)); // a second process of one test talks to the same mock
  const { cwd, adapter } = claudeAt(mock.baseURL, newTools, extra);
  return { runner: new PromptRunner({ adapter }), mock, cwd };
}

/** An adapter whose Claude Code asks the model at `baseURL`, in a working directory of its own. */
function claudeAt(baseURL: string, newTools?: ConversationNewTools, extra: ClaudeAgentSdkOptions = {}) {
  const cwd = tempDir("claude-code-");
  const adapter = new ClaudeAgentSdkAdapter({
    env: {
      ANTHROPIC_BASE_URL: baseURL,
      ANTHROPIC_API_KEY: "dummy",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      CLAUDE_CODE_MAX_RETRIES: "0", // a failing mock fails the test at once
      CLAUDE_CONFIG_DIR: path.join(cwd, ".claude"),
      TMPDIR: cwd, // its own temporary files (per project, per socket) go with the test's folder
    },
    model: "claude-sonnet-4-5",
    cwd,
    ...(newTools ? { newTools } : {}),
    ...extra,
  });
  return { cwd, adapter };
}

const ANSWER = { customerName: "John Smith", averageMonthlySpend: 46.83, currency: "USD" };
const SPEND = '{"amount":46.83,"currency":"USD"}';

/**
 * The seed flow's model: search until the customer's spend tool is offered, call it, then answer. A new
 * process (restart) sees the search only in its first message's transcript, so the script goes by what is
 * offered, not by what this process called.
 */
function seedFlow(answer: MockReply) {
  return (request: MessagesRequest): MockReply => {
    if (!request.offeredTools.includes(m("customer_c123_getAverageSpend")))
      return { toolCalls: [{ name: m("searchCustomer"), input: { name: "John Smith" } }] };
    if (!request.calledTools.includes(m("customer_c123_getAverageSpend")))
      return { toolCalls: [{ name: m("customer_c123_getAverageSpend"), input: {} }] };
    return answer;
  };
}

const historyToolNames = (history: readonly { role: string; content: unknown }[]) =>
  history.flatMap((msg) =>
    msg.role === "assistant" && Array.isArray(msg.content)
      ? (msg.content as { type: string; toolName?: string }[]).flatMap((p) =>
          p.type === "tool-call" ? [p.toolName!] : [],
        )
      : [],
  );

describe.skipIf(unavailable !== undefined)("ClaudeAgentSdkAdapter against the real Claude Code", () => {
  it("dynamic discovery: the discovered customer's tools are offered in the very next request of the same process, and the run ends with the validated object", async () => {
    const { runner, mock } = await claude(
      seedFlow({ toolCalls: [{ name: "StructuredOutput", input: ANSWER }] }),
    );
    const run = await runner
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withPricing((modelId) =>
        modelId === "claude-sonnet-4-5" ? { input: 3, output: 15 } : { input: 0, output: 0 },
      )
      .run("What is John Smith's average monthly spend?", { output: SpendAnswer });

    expect(run.result).toBeInstanceOf(SpendAnswer);
    expect(run.result?.averageMonthlySpend).toBe(46.83);
    // Our tools only: no built-in Claude Code tool (StructuredOutput carries the run's output schema).
    expect([...mock.requests[0]!.offeredTools].sort()).toEqual(
      ["StructuredOutput", m("findCustomers"), m("searchCustomer")].sort(),
    );
    // The request right after the search carries the customer's tools: the same process, no restart.
    expect(mock.requests[1]!.offeredTools).toEqual(
      expect.arrayContaining([m("customer_c123_getAverageSpend"), m("customer_c123_recentOrders")]),
    );
    expect(mock.requests).toHaveLength(3);
    expect(mock.requests[2]!.calledTools).toEqual([m("searchCustomer"), m("customer_c123_getAverageSpend")]);
    expect(mock.requests[2]!.toolResults[1]).toEqual({ text: SPEND, isError: false });
    // Our names everywhere the caller looks.
    expect(historyToolNames(run.conversationHistory)).toEqual([
      "searchCustomer",
      "customer_c123_getAverageSpend",
    ]);
    expect(run.injectedTools.map((t) => t.name)).toEqual([
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ]);
    expect(JSON.stringify([run.conversationHistory, run.snapshot])).not.toContain("mcp__");
    expect(run.usage).toEqual({
      inputTokens: MESSAGES_MOCK_USAGE.inputTokens * mock.requests.length,
      outputTokens: MESSAGES_MOCK_USAGE.outputTokens * mock.requests.length,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
    // The one turn's tokens are priced on its last step, as the model Claude Code's init message names.
    const { inputTokens, outputTokens } = run.usage;
    expect(run.cost?.total).toBeCloseTo((inputTokens * 3 + outputTokens * 15) * 1e-6, 12);
    expect(run.cost?.perStep.at(-1)).toMatchObject({ iteration: 3, modelId: "claude-sonnet-4-5" });
  });

  it("handles mode: the offered tools never change, and the discovered customer is reached by its handle in the same process", async () => {
    const { runner, mock } = await claude((request) => {
      const called = request.calledTools;
      if (!called.includes(m("searchCustomer")))
        return { toolCalls: [{ name: m("searchCustomer"), input: { name: "John Smith" } }] };
      if (!called.includes(m("customer_getAverageSpend"))) {
        const handle = /Customer:c123~[\w-]{22}/.exec(request.text)![0];
        return { toolCalls: [{ name: m("customer_getAverageSpend"), input: { handle } }] };
      }
      return { text: "John spends 46.83 USD a month." };
    });
    const events: ToolLoopEvent[] = [];
    const run = await runner
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery({ binding: "handles" })
      .withObserver((e) => events.push(e))
      .run("What is John Smith's average monthly spend?");

    expect(run.result).toBe("John spends 46.83 USD a month.");
    expect(mock.requests).toHaveLength(3);
    const offered = mock.requests.map((r) => JSON.stringify([...r.offeredTools].sort()));
    expect(new Set(offered).size).toBe(1);
    expect(mock.requests[0]!.offeredTools).toEqual(
      expect.arrayContaining([
        m("searchCustomer"),
        m("customer_getAverageSpend"),
        m("customer_recentOrders"),
      ]),
    );
    expect(mock.requests[2]!.toolResults.at(-1)).toEqual({ text: SPEND, isError: false });
    expect(run.injectedTools).toEqual([]);
    expect(events.some((e) => e.type === "DynamicToolsFallback")).toBe(false);
  });

  it("reading a summarized section that carries tools offers them in the next request of the same process, with its text in the result", async () => {
    const { runner, mock } = await claude((request) => {
      if (!request.calledTools.includes(m("read_section")))
        return { toolCalls: [{ name: m("read_section"), input: { section_key: "policies" } }] };
      return request.calledTools.includes(m("checkRefundEligibility"))
        ? { text: "Eligible: refund on its way." }
        : { toolCalls: [{ name: m("checkRefundEligibility"), input: { orderId: "o-1002" } }] };
    });
    const run = await runner.withSystemPrompt(supportPrompt(), { company: "Acme" }).run("Refund o-1002?");

    expect(run.result).toBe("Eligible: refund on its way.");
    expect(mock.requests).toHaveLength(3);
    expect(mock.requests[0]!.offeredTools).not.toContain(m("checkRefundEligibility"));
    expect(mock.requests[1]!.offeredTools).toContain(m("checkRefundEligibility"));
    expect(mock.requests[1]!.toolResults[0]!.text).toContain("Items arriving damaged are refunded in full");
    expect(mock.requests[2]!.toolResults[1]!.text).toBe(
      "Order o-1002 is within the 30-day window and eligible",
    );
    expect(run.counters).toMatchObject({ dynamicExpansions: 1, restarts: 0 });
  });

  it("a subagent on a smaller model (Claude Code's Agent tool): each model's tokens are priced at its own price, and cost, the run log, telemetry and usage agree", async () => {
    // Claude Code's result `usage` is its agent loop's alone; the subagent's call on claude-haiku-4-5 is only
    // in its cumulative `modelUsage`, which is what the user pays for.
    const HELPER = "claude-haiku-4-5";
    const { runner, mock, cwd } = await claude(
      (request) => {
        if (request.body.model === HELPER) return { text: "John Smith is customer c123." };
        if (request.calledTools.includes("Agent")) return { text: "He is customer c123." };
        const input = { description: "Find him", prompt: "Who is John Smith?", subagent_type: "finder" };
        return { toolCalls: [{ name: "Agent", input: { ...input, run_in_background: false } }] };
      },
      undefined,
      {
        builtInTools: ["Agent"],
        allowedTools: ["Agent"],
        sdkOptions: {
          agents: {
            finder: { description: "Finds customers", prompt: "Find customers.", model: HELPER, tools: [] },
          },
        },
      },
    );
    const { tracer, spans } = memoryTracer();
    const prices: Record<string, { input: number; output: number }> = {
      "claude-sonnet-4-5": { input: 3, output: 15 },
      [HELPER]: { input: 1, output: 5 },
    };
    const runs = path.join(cwd, "runs");
    const run = await runner
      .withPricing((modelId) => prices[modelId ?? ""] ?? { input: 1_000, output: 1_000 })
      .withRunLog(runs)
      .withTelemetry({ tracer })
      .run("Who is John Smith?");

    expect(run.result).toBe("He is customer c123.");
    const calls = (model: string) => mock.requests.filter((r) => r.body.model === model).length;
    expect([calls("claude-sonnet-4-5"), calls(HELPER)]).toEqual([2, 1]);
    const { inputTokens: i, outputTokens: o } = MESSAGES_MOCK_USAGE;
    const usage = (n: number) => ({
      inputTokens: i * n,
      outputTokens: o * n,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
    // What the user pays: two Sonnet calls at Sonnet's price and one Haiku call at Haiku's.
    expect(run.cost?.total).toBeCloseTo((2 * (i * 3 + o * 15) + (i * 1 + o * 5)) * 1e-6, 12);
    expect(run.cost?.perStep).toEqual([
      { iteration: 1, modelId: "claude-sonnet-4-5", usage: usage(2), cost: expect.any(Number) },
      { iteration: 1, modelId: HELPER, usage: usage(1), cost: expect.closeTo((i + o * 5) * 1e-6, 12) },
    ]);
    expect(run.usage).toEqual(usage(3));
    // The run log prices each model's response as that model, and its costs add up to the run's.
    const [file] = readdirSync(runs).filter((f) => f.endsWith(".jsonl"));
    const log = readRunLog(readFileSync(path.join(runs, file!), "utf8"));
    const responses = log.records.flatMap((r) => (r.type === "response" ? [r] : []));
    expect(responses.map((r) => [r.step, r.modelId, r.usage.inputTokens])).toEqual([
      [1, "claude-sonnet-4-5", 2 * i],
      [1, HELPER, i],
    ]);
    expect(responses.reduce((sum, r) => sum + r.cost!, 0)).toBeCloseTo(run.cost!.total, 12);
    // The viewer names the step's model and lists the other one with its own tokens and cost.
    const step = runView(log).steps.find((s) => s.step === 1)!;
    expect(step.response).toMatchObject({ modelId: "claude-sonnet-4-5", usage: usage(3) });
    expect(step.response?.cost).toBeCloseTo(run.cost!.total, 12);
    expect(step.otherModels?.map((r) => [r.modelId, r.usage.inputTokens])).toEqual([[HELPER, i]]);
    // Telemetry: a `chat` span per model, whose tokens add up to the run's.
    const chats = spans().filter((s) => s.name.startsWith("chat"));
    const chatTokens = chats.map((s) => [s.name, s.attributes["gen_ai.usage.input_tokens"]]);
    expect(chatTokens.sort()).toEqual([
      [`chat ${HELPER}`, i],
      ["chat claude-sonnet-4-5", 2 * i],
    ]);
  });

  it("a name that would pass 64 characters as mcp__tools__<name> is shortened for the model only: results, events and history keep ours", async () => {
    const id = "3f2c6b1e-7a4d-4c1b-9e2f-5d6a7b8c9d0e";
    const ours = `customer_${id}_getAverageSpend`;
    const lookup = defineTool({
      name: "lookup",
      description: "Look the customer up",
      execute: () => new Customer(id, "John Smith", "john@example.com", new OrderRepository()),
    });
    const spendTool = (request: MessagesRequest) =>
      request.offeredTools.find((n) => n.startsWith(m("customer_")) && n.endsWith("_getAverageSpend"));
    const { runner, mock } = await claude((request) => {
      const called = request.calledTools;
      if (!called.includes(m("lookup"))) return { toolCalls: [{ name: m("lookup"), input: {} }] };
      if (called.length === 1) return { toolCalls: [{ name: spendTool(request)!, input: {} }] };
      return { text: "John Smith spends 0 USD a month." };
    });
    const events: ToolLoopEvent[] = [];
    const run = await runner
      .withTools(lookup)
      .withToolProviderDiscovery()
      .withObserver((e) => events.push(e))
      .run("Spend?");

    const seen = spendTool(mock.requests[1]!)!;
    expect(seen.length).toBeLessThanOrEqual(64);
    expect(ours.length + m("").length).toBeGreaterThan(64);
    expect(run.result).toBe("John Smith spends 0 USD a month.");
    expect(historyToolNames(run.conversationHistory)).toEqual(["lookup", ours]);
    expect(run.injectedTools.map((t) => t.name)).toContain(ours);
    expect(events.flatMap((e) => (e.type === "ToolInvoked" ? [e.toolName] : []))).toEqual(["lookup", ours]);
    expect(mock.requests[2]!.toolResults[1]!.isError).toBe(false);
  });

  it("restart mode: the turn stops when the customer's tools appear, and a new process offers them from its first request", async () => {
    const { runner, mock } = await claude(
      seedFlow({ text: "John Smith spends 46.83 USD a month." }),
      "restart",
    );
    const run = await runner
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .run("What is John Smith's average monthly spend?");

    expect(run.result).toBe("John Smith spends 46.83 USD a month.");
    expect(mock.requests[0]!.offeredTools).not.toContain(m("customer_c123_getAverageSpend"));
    // The second request is the new process's first: it has the tools and the transcript, not the search.
    const restarted = mock.requests[1]!;
    expect(restarted.offeredTools).toContain(m("customer_c123_getAverageSpend"));
    expect(restarted.text).toContain("You already made these tool calls for this task");
    expect(restarted.calledTools).toEqual([]);
    expect(mock.requests.at(-1)!.toolResults).toEqual([{ text: SPEND, isError: false }]);
  });

  it("dispatch mode: the process goes on and reaches the customer's tool through call_discovered_tool", async () => {
    const { runner, mock } = await claude((request) => {
      const called = request.calledTools;
      if (called.length === 0)
        return { toolCalls: [{ name: m("searchCustomer"), input: { name: "John Smith" } }] };
      if (called.length === 1)
        return {
          toolCalls: [
            // Fits the dispatcher's schema, so Claude Code sends it: our rule refuses it, as every driver does.
            { name: m("call_discovered_tool"), input: { tool_name: "call_discovered_tool" } },
            {
              name: m("call_discovered_tool"),
              input: { tool_name: "customer_c123_getAverageSpend", arguments: {} },
            },
          ],
        };
      return { text: "46.83 USD" };
    }, "dispatch");
    const run = await runner.withTools(new CustomerSearchTools()).withToolProviderDiscovery().run("Spend?");
    expect(run.result).toBe("46.83 USD");
    expect(mock.requests).toHaveLength(3);
    expect(mock.requests[2]!.offeredTools).not.toContain(m("customer_c123_getAverageSpend"));
    const [search, itself, spend] = mock.requests[2]!.toolResults;
    expect(search!.text).toContain("New tools are available through call_discovered_tool");
    expect(itself).toEqual({
      text: 'Invalid arguments for "call_discovered_tool": "tool_name" names a discovered tool, not call_discovered_tool itself.',
      isError: true,
    });
    expect(spend).toEqual({ text: SPEND, isError: false });
    expect(historyToolNames(run.conversationHistory)).toEqual([
      "searchCustomer",
      "call_discovered_tool",
      "customer_c123_getAverageSpend",
    ]);
  });

  it("a tool that throws: the model reads an error result (is_error) with the message, and answers", async () => {
    const boom = defineTool({
      name: "boom",
      description: "Always fails",
      execute: () => {
        throw new Error("warehouse offline");
      },
    });
    const { runner, mock } = await claude((request) =>
      request.calledTools.includes(m("boom"))
        ? { text: "The warehouse is offline." }
        : { toolCalls: [{ name: m("boom"), input: {} }] },
    );
    const run = await runner.withTools(boom).run("Check the warehouse");
    expect(run.result).toBe("The warehouse is offline.");
    expect(mock.requests[1]!.toolResults).toEqual([
      { text: 'Tool "boom" failed: warehouse offline', isError: true },
    ]);
    expect(run.counters.toolFailures).toBe(1);
  });

  it("a streamed run: the call's tool-call part (our name, its input) before its result, the answer as text, then finish with the run", async () => {
    const stock = defineTool<{ sku: string }>({
      name: "stock",
      description: "Units in stock of a product",
      inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
      execute: ({ sku }) => `${sku}: 12 units`,
    });
    const { runner } = await claude((request) =>
      request.calledTools.includes(m("stock"))
        ? { text: "There are 12 in stock." }
        : { toolCalls: [{ name: m("stock"), input: { sku: "A-1" } }] },
    );
    const { parts, run } = await readStream(runner.withTools(stock).stream("How many A-1 are in stock?"));
    expect(run.result).toBe("There are 12 in stock.");
    const call = parts.find((p) => p.type === "tool-call");
    expect(parts.map((p) => p.type)).toEqual(ONE_CALL_THEN_ANSWER);
    expect(call).toMatchObject({ toolName: "stock", input: { sku: "A-1" } });
    expect(parts[1]).toMatchObject({
      type: "tool-result",
      toolCallId: (call as { toolCallId: string }).toolCallId,
      toolName: "stock",
      output: "A-1: 12 units",
      isError: false,
    });
    expect(parts[3]).toEqual({ type: "text-delta", text: "There are 12 in stock." });
    expect(parts.at(-1)).toEqual({ type: "finish", result: run });
  });

  it("X22 a slow reader: the run answers Claude Code's next call only once the reader is fewer than 64 parts behind, so Claude Code is at most 64 parts' worth of calls ahead; every part arrives in order", async () => {
    const model = counting.countingModel(m("count"));
    // Claude Code's requests that are not the run's thread (none offers our tool) get a plain answer.
    const { runner } = await claude((request) =>
      request.offeredTools.includes(m("count")) ? model.reply(request) : { text: "ok" },
    );
    await counting.expectTheRunWaitsForItsReader(runner, model.asked);
  }, 120_000);

  it("B03 a reader that stops reading past turnTimeoutMs: the turn's error says the run had not answered Claude Code's call, and why it may wait, not that Claude Code did not reach its model", async () => {
    const reply = counting.burstingModel(m("count"));
    const { runner } = await claude(
      (request) => (request.offeredTools.includes(m("count")) ? reply(request) : { text: "ok" }),
      undefined,
      { turnTimeoutMs: counting.STALLED_TURN_TIMEOUT_MS },
    );
    const [error, cause] = await counting.failureOfAReaderThatStops(runner);
    expect(error).toBe(`The model call failed: ${cause}`);
    expect(cause).toBe(
      'The Claude Code turn did not complete within N ms: it was waiting N ms for the run to answer its call of "count" (the run answers a call once the tool has run and, in a streamed run, once the reader of stream() is fewer than 64 parts behind). Read the stream as it comes, or raise turnTimeoutMs.',
    );
  }, 60_000);

  it("a tool returning a picture: Claude Code's model gets it as an image block in the tool_result; a PDF as a text description", async () => {
    const { runner, mock } = await claude((request) =>
      request.calledTools.includes(m("chart"))
        ? { text: "Flat." }
        : { toolCalls: [{ name: m("chart"), input: {} }] },
    );
    const events: ToolLoopEvent[] = [];
    const run = await runner
      .withTools(spendChartWithPdf)
      .withObserver((e) => events.push(e))
      .run("Chart the spend");
    expect(run.result).toBe("Flat.");
    const blocks = mock.requests[1]!.body.messages.flatMap((msg) =>
      Array.isArray(msg.content) ? (msg.content as { type: string; content?: unknown }[]) : [],
    );
    const result = JSON.stringify(blocks.find((b) => b.type === "tool_result")?.content);
    expect(result).toContain(
      `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${TINY_PNG_BASE64}"}}`,
    );
    expect(result).toContain(
      "[file application/pdf] (not shown: this model does not take application/pdf in tool results)",
    );
    expect(events.filter((e) => e.type === "ModelWarning")).toHaveLength(1);
  });

  it("an approval pauses the run before the call; a fresh runner resumes from the JSON snapshot in a new process, and the call runs once", async () => {
    let refunds = 0;
    const refund = defineTool({
      name: "refundOrder",
      description: "Refund an order",
      inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
      needsApproval: true,
      execute: (input: { orderId: string }) => {
        refunds++;
        return `Refunded ${input.orderId}`;
      },
    });
    const reply = (request: MessagesRequest): MockReply =>
      request.text.includes("Refunded o-1")
        ? { text: "Order o-1 is refunded." }
        : { toolCalls: [{ name: m("refundOrder"), input: { orderId: "o-1" } }] };
    const first = await claude(reply);
    const paused = await first.runner.withTools(refund).run("Refund order o-1");

    expect(paused.status).toBe("awaiting-approval");
    expect(paused.pendingApprovals.map((p) => [p.toolName, p.input])).toEqual([
      ["refundOrder", { orderId: "o-1" }],
    ]);
    expect(refunds).toBe(0);
    expect(first.mock.requests).toHaveLength(1);

    const second = await claude(reply);
    const snapshot = JSON.parse(JSON.stringify(paused.snapshot));
    const done = await second.runner.withTools(refund).resume(snapshot, {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
    });
    expect(done.status).toBe("completed");
    expect(done.result).toBe("Order o-1 is refunded.");
    expect(refunds).toBe(1);
    const resumed = second.mock.requests[1]!;
    expect(resumed.text).toContain("You already made these tool calls for this task");
    expect(resumed.calledTools).toEqual([]); // a new process: the refund is not called again
  });

  it("B01 when run() resolves, its Claude Code process is gone: nothing writes in its folder any more, which the caller can remove at once", async () => {
    const { runner, cwd } = await claude(() => ({ text: "Hello." }));
    const run = await runner.run("Say hello");
    expect(run.result).toBe("Hello.");
    expect(processesIn(cwd)).toEqual([]); // not polled: gone when the run resolved
  });

  it("B01 a spawnClaudeCodeProcess of the caller's (sdkOptions) starts Claude Code, and the run waits for that process too", async () => {
    const spawned: number[] = [];
    const { runner, cwd } = await claude(() => ({ text: "Hello." }), undefined, {
      sdkOptions: {
        spawnClaudeCodeProcess: ({ command, args, cwd: dir, env, signal }) => {
          const child = spawn(command, args, { cwd: dir, env, signal, stdio: ["pipe", "pipe", "ignore"] });
          spawned.push(child.pid!);
          return child;
        },
      },
    });
    expect((await runner.run("Say hello")).result).toBe("Hello.");
    expect(spawned).toHaveLength(1);
    expect(processesIn(cwd)).toEqual([]);
  });

  it("aborting mid-call rejects the run with ToolLoopAbortedError and ends the Claude Code process", async () => {
    const controller = new AbortController();
    const wait = defineTool({
      name: "waitForWarehouse",
      description: "Waits a long time",
      execute: () => {
        controller.abort(new Error("user left"));
        return new Promise((resolve) => setTimeout(resolve, 60_000).unref());
      },
    });
    const { runner, cwd } = await claude(() => ({ toolCalls: [{ name: m("waitForWarehouse"), input: {} }] }));
    const run = runner.withTools(wait).run("Wait", { signal: controller.signal });
    await expect(run).rejects.toBeInstanceOf(ToolLoopAbortedError);
    expect(processesIn(cwd)).toEqual([]); // the process ended (not polled: when the run rejected)
  });

  it("a model endpoint that never answers: the turn times out, the run fails with the reason, and the process ends", async () => {
    const silent = createServer(() => {}); // accepts the request, never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { cwd, adapter } = claudeAt(
        `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        undefined,
        {
          turnTimeoutMs: 3_000,
        },
      );
      const error = await new PromptRunner({ adapter }).run("Hello?").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelCallError);
      const cause = (error as ModelCallError).cause;
      expect(cause).toBeInstanceOf(ClaudeAgentSdkError);
      expect((cause as Error).message).toContain("The Claude Code turn did not complete within 3000 ms");
      expect(processesIn(cwd)).toEqual([]); // the process ended (not polled: when the run rejected)
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
