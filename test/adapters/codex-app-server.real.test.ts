// Tier 2: the real `codex app-server` from the pinned @openai/codex dev dependency, its model provider
// pointed (through a fresh CODEX_HOME) at a Responses API mock on 127.0.0.1.
import "../fixtures/store/register.js";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, PromptRunner, type NewToolsMode, type ToolLoopEvent } from "entity-tools";
import { CodexAppServerAdapter } from "entity-tools/codex";
import { SpendAnswer } from "../fixtures/store/answers.js";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { supportPrompt } from "../fixtures/store/support-prompt.js";
import {
  startOpenAiResponsesMock,
  type OpenAiResponsesMock,
  type MockReply,
  type ResponsesRequest,
} from "entity-tools/testing";
import { codexHomeFor } from "../support/codex-home.js";
import { processesIn, programOf } from "../support/processes-in.js";
import * as counting from "../support/stalled-reader.js";
import { memoryTracer, spanTree } from "../support/span-tree.js";
import { spendChartWithPdf } from "../support/spend-chart.js";
import { TINY_PNG_BASE64 } from "../support/tiny-png.js";

let mock: OpenAiResponsesMock | undefined;
afterEach(async () => mock?.close());

async function codexRunner(
  reply: (request: ResponsesRequest) => MockReply,
  newTools: NewToolsMode = "restart",
  turnTimeoutMs = 60_000,
) {
  mock = await startOpenAiResponsesMock(reply);
  const codexHome = codexHomeFor(mock.baseURL);
  const adapter = new CodexAppServerAdapter({
    codexHome,
    newTools,
    requestTimeoutMs: 20_000,
    turnTimeoutMs,
  });
  return { runner: new PromptRunner({ adapter }), mock, codexHome };
}

const ANSWER = '{"customerName":"John Smith","averageMonthlySpend":46.83,"currency":"USD"}';

describe("CodexAppServerAdapter against the real codex app-server", () => {
  it("X23 a slow reader: the run answers Codex's next call only once the reader is fewer than 64 parts behind, so Codex is at most 64 parts' worth of calls ahead; every part arrives in order", async () => {
    const model = counting.countingModel("count");
    const { runner } = await codexRunner(model.reply);
    await counting.expectTheRunWaitsForItsReader(runner, model.asked);
  }, 120_000);

  it("B03 a reader that stops reading past turnTimeoutMs: the turn's error says the run had not answered Codex's call, and why it may wait", async () => {
    const { runner } = await codexRunner(
      counting.burstingModel("count"),
      "restart",
      counting.STALLED_TURN_TIMEOUT_MS,
    );
    const [error, cause] = await counting.failureOfAReaderThatStops(runner);
    expect(error).toBe(`The model call failed: ${cause}`);
    expect(cause).toBe(
      'the Codex turn did not complete within N ms: it was waiting N ms for the run to answer its call of "count" (the run answers a call once the tool has run and, in a streamed run, once the reader of stream() is fewer than 64 parts behind). Read the stream as it comes, or raise turnTimeoutMs.',
    );
  }, 60_000);

  it("seed flow, restart mode: the discovered customer tool is offered in a new thread, which continues the work", async () => {
    const { runner, mock } = await codexRunner(({ offeredTools, calledTools }) => {
      if (offeredTools.includes("customer_c123_getAverageSpend")) {
        return calledTools.includes("customer_c123_getAverageSpend")
          ? { text: ANSWER }
          : { toolCalls: [{ name: "customer_c123_getAverageSpend", input: {} }] };
      }
      return calledTools.includes("searchCustomer")
        ? { text: "(waiting for the customer's tools)" }
        : { toolCalls: [{ name: "searchCustomer", input: { name: "John Smith" } }] };
    });
    const run = await runner
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withPricing((modelId) => (modelId === "gpt-test" ? { input: 1, output: 10 } : { input: 0, output: 0 }))
      .run("What is John Smith's average monthly spend?", { output: SpendAnswer });

    expect(run.result).toBeInstanceOf(SpendAnswer);
    expect(run.result?.averageMonthlySpend).toBe(46.83);
    const first = mock.requests[0]!;
    expect(first.offeredTools).toEqual(expect.arrayContaining(["searchCustomer", "findCustomers"]));
    expect(first.offeredTools).not.toContain("customer_c123_getAverageSpend");
    const restarted = mock.requests.find((r) => r.offeredTools.includes("customer_c123_getAverageSpend"))!;
    expect(restarted.text).toContain("You already made these tool calls for this task");
    expect(restarted.calledTools).not.toContain("searchCustomer"); // a new thread: the search is not redone
    const last = mock.requests.at(-1)!;
    expect(last.toolResults).toEqual([{ text: '{"amount":46.83,"currency":"USD"}' }]);
    // The first thread is stopped as soon as the customer's tools appear; its result travels in the transcript.
    expect(restarted.text).toContain(
      String.raw`- searchCustomer({\"name\":\"John Smith\"}) → {\"id\":\"c123\"`,
    );
    expect(JSON.stringify(mock.requests.map((r) => r.body))).not.toContain("s3cret");
    expect(run.injectedTools.map((t) => t.name)).toEqual([
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ]);
    // Each thread's call has an id of its own, as the API gives them: the run's history, which holds both
    // threads' calls, names each call once (its result, an approval and the run log find that call).
    const callIds = run.conversationHistory.flatMap((m) =>
      m.role === "assistant" && Array.isArray(m.content)
        ? m.content.flatMap((p) => (p.type === "tool-call" ? [p.toolCallId] : []))
        : [],
    );
    expect(callIds).toHaveLength(2);
    expect(new Set(callIds).size).toBe(2);
    // The mock reports 100 input and 7 output tokens per response; Codex passes them on per thread.
    expect(run.usage).toEqual({
      inputTokens: 100 * mock.requests.length,
      outputTokens: 7 * mock.requests.length,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
    // Every turn's tokens are priced as the model thread/start named (the stopped first thread's too).
    expect(run.cost?.total).toBeCloseTo((100 * 1 + 7 * 10) * mock.requests.length * 1e-6, 12);
    expect(run.cost?.perStep.filter((s) => (s.cost ?? 0) > 0).map((s) => s.modelId)).toEqual([
      "gpt-test",
      "gpt-test",
    ]);
  });

  it("seed flow, dispatch mode: the thread goes on and reaches the new tool through call_discovered_tool", async () => {
    const { runner, mock } = await codexRunner(({ calledTools }) => {
      if (!calledTools.includes("searchCustomer"))
        return { toolCalls: [{ name: "searchCustomer", input: { name: "John Smith" } }] };
      if (!calledTools.includes("call_discovered_tool")) {
        return {
          toolCalls: [
            // Fits the dispatcher's schema, so Codex sends it: our rule refuses it, as every driver does.
            { name: "call_discovered_tool", input: { tool_name: "call_discovered_tool" } },
            {
              name: "call_discovered_tool",
              input: { tool_name: "customer_c123_getAverageSpend", arguments: {} },
            },
          ],
        };
      }
      return { text: ANSWER };
    }, "dispatch");
    const answer = await runner
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .createObject(SpendAnswer, "Spend of John Smith?");
    expect(answer.averageMonthlySpend).toBe(46.83);
    expect(mock.requests).toHaveLength(3); // one thread: search, dispatch, answer
    expect(mock.requests[0]!.offeredTools).toContain("call_discovered_tool");
    const [searchOutput, itselfOutput, spendOutput] = mock.requests[2]!.toolResults.map((r) => r.text);
    expect(itselfOutput).toBe(
      'Invalid arguments for "call_discovered_tool": "tool_name" names a discovered tool, not call_discovered_tool itself.',
    );
    expect(searchOutput).toContain("New tools are available through call_discovered_tool");
    expect(searchOutput).toContain(
      "- customer_c123_getAverageSpend: Get this customer's average monthly spend",
    );
    expect(spendOutput).toBe('{"amount":46.83,"currency":"USD"}');
  });

  it("reading a summarized tool-bearing section restarts with the section's tools offered at thread/start", async () => {
    const { runner, mock } = await codexRunner(({ offeredTools, calledTools }) => {
      if (!offeredTools.includes("checkRefundEligibility"))
        return { toolCalls: [{ name: "read_section", input: { section_key: "policies" } }] };
      return calledTools.includes("checkRefundEligibility")
        ? { text: "Eligible: refund on its way." }
        : { toolCalls: [{ name: "checkRefundEligibility", input: { orderId: "o-1002" } }] };
    });
    const run = await runner.withSystemPrompt(supportPrompt(), { company: "Acme" }).run("Refund o-1002?");
    expect(run.result).toBe("Eligible: refund on its way.");
    expect(mock.requests[0]!.offeredTools).toContain("read_section");
    expect(JSON.stringify(mock.requests[0]!.body)).not.toContain("Items arriving damaged");
    const restarted = mock.requests.find((r) => r.offeredTools.includes("checkRefundEligibility"))!;
    expect(JSON.stringify(restarted.body)).toContain("Items arriving damaged are refunded in full");
    expect(mock.requests.at(-1)!.toolResults).toEqual([
      { text: "Order o-1002 is within the 30-day window and eligible" },
    ]);
    expect(run.counters.restarts).toBe(1);
  });

  it("B02 when run() resolves, its codex app-server is gone (the native binary too)", async () => {
    const { runner, codexHome } = await codexRunner(() => ({ text: "Hello." }));
    const run = await runner.run("Say hello");
    expect(run.result).toBe("Hello.");
    // Codex's own processes; not what the user's shell profile was running in the login shell of Codex's
    // environment snapshot (codex-shell-snapshot.real.test.ts, docs/reliability.md B05).
    const codex = processesIn(codexHome).filter((pid) => /codex(\.js)?\b/.test(programOf(pid)));
    expect(codex).toEqual([]); // not polled: gone when the run resolved
  });

  it("a tool that throws: the model sees the failure and answers", async () => {
    const boom = defineTool({
      name: "boom",
      description: "Always fails",
      execute: () => {
        throw new Error("warehouse offline");
      },
    });
    const { runner, mock } = await codexRunner(({ calledTools }) =>
      calledTools.includes("boom")
        ? { text: "The warehouse is offline." }
        : { toolCalls: [{ name: "boom", input: {} }] },
    );
    const run = await runner.withTools(boom).run("Check the warehouse");
    expect(run.result).toBe("The warehouse is offline.");
    expect(mock.requests[1]!.toolResults).toEqual([{ text: 'Tool "boom" failed: warehouse offline' }]);
    expect(run.counters.toolFailures).toBe(1);
  });

  it("a tool returning a picture: codex sends it to its model as an input_image in the function output; a PDF as text", async () => {
    const { runner, mock } = await codexRunner(({ calledTools }) =>
      calledTools.includes("chart") ? { text: "Flat." } : { toolCalls: [{ name: "chart", input: {} }] },
    );
    const run = await runner.withTools(spendChartWithPdf).run("Chart the spend");
    expect(run.result).toBe("Flat.");
    const outputs = (mock.requests[1]!.body.input as { type?: unknown; output?: unknown }[])
      .filter((item) => item.type === "function_call_output")
      .map((item) => item.output);
    expect(outputs).toEqual([
      [
        { type: "input_text", text: "Monthly spend:" },
        expect.objectContaining({
          type: "input_image",
          image_url: `data:image/png;base64,${TINY_PNG_BASE64}`,
        }),
        {
          type: "input_text",
          text: "[file application/pdf] (not shown: this model does not take application/pdf in tool results)",
        },
      ],
    ]);
  });

  // Codex runs a response's calls at once: each call is its own step, and ends with its own result (the
  // second one's was lost, "Not run: the run ended before this call ran", when the first one ended
  // first), its own span and its own tool-set changes (they went to the call started last).
  it("two calls in one response run at once, each with its own result, span and tool-set changes", async () => {
    let waitStarted!: () => void;
    const started = new Promise<void>((resolve) => (waitStarted = resolve));
    let lookedUp!: () => void;
    const looked = new Promise<void>((resolve) => (lookedUp = resolve));
    const search = new CustomerSearchTools();
    const lookup = defineTool({
      name: "lookup",
      description: "Find customers by part of a name",
      execute: async () => (await started, search.findCustomers("Khan")),
    });
    const wait = defineTool({
      name: "wait",
      description: "Wait",
      execute: async () => (waitStarted(), await looked, "waited"),
    });
    const { runner, mock } = await codexRunner(
      ({ calledTools }) =>
        calledTools.length > 0
          ? { text: "done" }
          : {
              toolCalls: [
                { name: "lookup", input: {} },
                { name: "wait", input: {} },
              ],
            },
      "dispatch",
    );
    const { tracer, spans } = memoryTracer();
    const run = await runner
      .withTools(lookup, wait)
      .withToolProviderDiscovery()
      .withTelemetry({ tracer })
      .withObserver((e: ToolLoopEvent) => {
        if (e.type === "ToolInvoked" && e.toolName === "lookup") lookedUp();
      })
      .run("q");
    expect(run.result).toBe("done");
    const results = mock.requests[1]!.toolResults.map((r) => r.text);
    expect(results).toHaveLength(2);
    expect(results).toContain("waited");
    expect(results.find((text) => text !== "waited")).toContain('"id":"c789"');
    expect(run.counters.toolFailures).toBe(0);
    // Codex may send either call first: each tool span with its events, whichever came first.
    const events: Record<string, string[]> = {};
    let tool = "";
    for (const line of spanTree(spans())) {
      if (line.startsWith("  execute_tool ")) events[(tool = line.slice(15))] = [];
      else if (line.startsWith("    · ")) events[tool]?.push(line.slice(6));
      else tool = "";
    }
    expect(events).toEqual({
      lookup: [
        "tools.injected customer_c789_getAverageSpend,customer_c789_recentOrders by lookup from Customer:c789",
      ],
      wait: [],
    });
  });
});

describe("approvals of calls Codex runs at once", () => {
  // Both calls of one response need a decision, and each is asked while the other is asked too (the rule
  // waits for both), so they surely overlap: the run pauses with both pending, and resume decides each.
  it("two calls of one response that both need approval: the run pauses with both, resume runs one and refuses the other, the model reads both", async () => {
    const refunds: string[] = [];
    const refund = defineTool<{ order: string }>({
      name: "refund",
      description: "Refund an order",
      inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
      execute: ({ order }) => (refunds.push(order), `refunded ${order}`),
    });
    let asked = 0;
    let bothAsked!: () => void;
    const both = new Promise<void>((resolve) => (bothAsked = resolve));
    const askBoth = async () => {
      if (++asked === 2) bothAsked();
      await both;
      return true;
    };
    // The resumed run's new thread is told what was done, as a transcript: then it answers.
    const { runner, mock } = await codexRunner(({ calledTools, text }) =>
      calledTools.length > 0 || text.includes("You already made these tool calls")
        ? { text: "done" }
        : {
            toolCalls: [
              { name: "refund", input: { order: "a" } },
              { name: "refund", input: { order: "b" } },
            ],
          },
    );
    const requested: string[] = [];
    const paused = await runner
      .withTools(refund)
      .withApproval(askBoth)
      .withObserver((e: ToolLoopEvent) => {
        if (e.type === "ApprovalRequested") requested.push(JSON.stringify(e.input));
      })
      .run("Refund a and b");
    expect(paused.status).toBe("awaiting-approval");
    const pending = paused.pendingApprovals.map((p) => (p.input as { order: string }).order).sort();
    expect(pending).toEqual(["a", "b"]);
    expect(requested.sort()).toEqual(['{"order":"a"}', '{"order":"b"}']);
    expect(refunds).toEqual([]);
    const snapshot = paused.snapshot!;
    const waiting = [snapshot.paused!, ...(snapshot.paused!.more ?? [])].flatMap((g) => g.calls);
    expect(waiting.map((c) => c.input)).toEqual(paused.pendingApprovals.map((p) => p.input));
    const id = (order: string) =>
      paused.pendingApprovals.find((p) => (p.input as { order: string }).order === order)!.approvalId;
    const resumed = await runner
      .withTools(refund)
      .withApproval(askBoth)
      .resume(JSON.parse(JSON.stringify(paused.snapshot)), {
        approvals: { [id("a")]: { approved: true }, [id("b")]: { approved: false, reason: "not b" } },
      });
    expect(resumed.status).toBe("completed");
    expect(resumed.result).toBe("done");
    expect(refunds).toEqual(["a"]);
    const read = mock.requests.at(-1)!.text;
    expect(read).toContain("refunded a");
    expect(read).toContain("Not run: a person denied this call: not b.");
  });
});
