// Tier 2: the real `codex app-server` from the pinned @openai/codex dev dependency, its model provider
// pointed (through a fresh CODEX_HOME) at a Responses API mock on 127.0.0.1.
import "../fixtures/store/register.js";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, PromptRunner, type NewToolsMode } from "entity-tools";
import { CodexAppServerAdapter } from "entity-tools/codex";
import { SpendAnswer } from "../fixtures/store/answers.js";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { supportPrompt } from "../fixtures/store/support-prompt.js";
import { calledTools, codexHomeFor, functionOutputs, toolNames } from "../support/codex-home.js";
import {
  startResponsesMock,
  type ResponsesMock,
  type ResponsesReply,
} from "../support/responses-sse-mock.js";
import { spendChartWithPdf } from "../support/spend-chart.js";
import { TINY_PNG_BASE64 } from "../support/tiny-png.js";

let mock: ResponsesMock | undefined;
afterEach(async () => mock?.close());

async function codexRunner(reply: ResponsesReply, newTools: NewToolsMode = "restart") {
  mock = await startResponsesMock(Array.from({ length: 30 }, () => reply));
  const adapter = new CodexAppServerAdapter({
    codexHome: codexHomeFor(mock.baseURL),
    newTools,
    requestTimeoutMs: 20_000,
    turnTimeoutMs: 60_000,
  });
  return { runner: new PromptRunner({ adapter }), mock };
}

const ANSWER = '{"customerName":"John Smith","averageMonthlySpend":46.83,"currency":"USD"}';

describe("CodexAppServerAdapter against the real codex app-server", () => {
  it("seed flow, restart mode: the discovered customer tool is offered in a new thread, which continues the work", async () => {
    const { runner, mock } = await codexRunner((body) => {
      const offered = toolNames(body);
      if (offered.includes("customer_c123_getAverageSpend")) {
        return calledTools(body).includes("customer_c123_getAverageSpend")
          ? { message: ANSWER }
          : { functionCalls: [{ name: "customer_c123_getAverageSpend", arguments: {} }] };
      }
      return calledTools(body).includes("searchCustomer")
        ? { message: "(waiting for the customer's tools)" }
        : { functionCalls: [{ name: "searchCustomer", arguments: { name: "John Smith" } }] };
    });
    const run = await runner
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .run("What is John Smith's average monthly spend?", { output: SpendAnswer });

    expect(run.result).toBeInstanceOf(SpendAnswer);
    expect(run.result?.averageMonthlySpend).toBe(46.83);
    const first = mock.requests[0]!;
    expect(toolNames(first)).toEqual(expect.arrayContaining(["searchCustomer", "findCustomers"]));
    expect(toolNames(first)).not.toContain("customer_c123_getAverageSpend");
    const restarted = mock.requests.find((r) => toolNames(r).includes("customer_c123_getAverageSpend"))!;
    expect(JSON.stringify(restarted.input)).toContain("You already made these tool calls for this task");
    expect(calledTools(restarted)).not.toContain("searchCustomer"); // a new thread: the search is not redone
    const last = mock.requests.at(-1)!;
    expect(functionOutputs(last)).toEqual(['{"amount":46.83,"currency":"USD"}']);
    // The first thread is stopped as soon as the customer's tools appear; its result travels in the transcript.
    expect(JSON.stringify(restarted.input)).toContain(
      String.raw`- searchCustomer({\"name\":\"John Smith\"}) → {\"id\":\"c123\"`,
    );
    expect(JSON.stringify(mock.requests)).not.toContain("s3cret");
    expect(run.injectedTools.map((t) => t.name)).toEqual([
      "customer_c123_getAverageSpend",
      "customer_c123_recentOrders",
    ]);
    // The mock reports 100 input and 7 output tokens per response; Codex passes them on per thread.
    expect(run.usage).toEqual({
      inputTokens: 100 * mock.requests.length,
      outputTokens: 7 * mock.requests.length,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
  });

  it("seed flow, dispatch mode: the thread goes on and reaches the new tool through call_discovered_tool", async () => {
    const { runner, mock } = await codexRunner((body) => {
      const called = calledTools(body);
      if (!called.includes("searchCustomer"))
        return { functionCalls: [{ name: "searchCustomer", arguments: { name: "John Smith" } }] };
      if (!called.includes("call_discovered_tool")) {
        return {
          functionCalls: [
            {
              name: "call_discovered_tool",
              arguments: { tool_name: "customer_c123_getAverageSpend", arguments: {} },
            },
          ],
        };
      }
      return { message: ANSWER };
    }, "dispatch");
    const answer = await runner
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .createObject(SpendAnswer, "Spend of John Smith?");
    expect(answer.averageMonthlySpend).toBe(46.83);
    expect(mock.requests).toHaveLength(3); // one thread: search, dispatch, answer
    expect(toolNames(mock.requests[0]!)).toContain("call_discovered_tool");
    const [searchOutput, spendOutput] = functionOutputs(mock.requests[2]!);
    expect(searchOutput).toContain("New tools are available through call_discovered_tool");
    expect(searchOutput).toContain(
      "- customer_c123_getAverageSpend: Get this customer's average monthly spend",
    );
    expect(spendOutput).toBe('{"amount":46.83,"currency":"USD"}');
  });

  it("reading a summarized tool-bearing section restarts with the section's tools offered at thread/start", async () => {
    const { runner, mock } = await codexRunner((body) => {
      if (!toolNames(body).includes("checkRefundEligibility"))
        return { functionCalls: [{ name: "read_section", arguments: { section_key: "policies" } }] };
      return calledTools(body).includes("checkRefundEligibility")
        ? { message: "Eligible: refund on its way." }
        : { functionCalls: [{ name: "checkRefundEligibility", arguments: { orderId: "o-1002" } }] };
    });
    const run = await runner.withSystemPrompt(supportPrompt(), { company: "Acme" }).run("Refund o-1002?");
    expect(run.result).toBe("Eligible: refund on its way.");
    expect(toolNames(mock.requests[0]!)).toContain("read_section");
    expect(JSON.stringify(mock.requests[0]!)).not.toContain("Items arriving damaged");
    const restarted = mock.requests.find((r) => toolNames(r).includes("checkRefundEligibility"))!;
    expect(JSON.stringify(restarted)).toContain("Items arriving damaged are refunded in full");
    expect(functionOutputs(mock.requests.at(-1)!)).toEqual([
      "Order o-1002 is within the 30-day window and eligible",
    ]);
    expect(run.counters.restarts).toBe(1);
  });

  it("a tool that throws: the model sees the failure and answers", async () => {
    const boom = defineTool({
      name: "boom",
      description: "Always fails",
      execute: () => {
        throw new Error("warehouse offline");
      },
    });
    const { runner, mock } = await codexRunner((body) =>
      calledTools(body).includes("boom")
        ? { message: "The warehouse is offline." }
        : { functionCalls: [{ name: "boom", arguments: {} }] },
    );
    const run = await runner.withTools(boom).run("Check the warehouse");
    expect(run.result).toBe("The warehouse is offline.");
    expect(functionOutputs(mock.requests[1]!)).toEqual(['Tool "boom" failed: warehouse offline']);
    expect(run.counters.toolFailures).toBe(1);
  });

  it("a tool returning a picture: codex sends it to its model as an input_image in the function output; a PDF as text", async () => {
    const { runner, mock } = await codexRunner((body) =>
      calledTools(body).includes("chart")
        ? { message: "Flat." }
        : { functionCalls: [{ name: "chart", arguments: {} }] },
    );
    const run = await runner.withTools(spendChartWithPdf).run("Chart the spend");
    expect(run.result).toBe("Flat.");
    const outputs = (mock.requests[1]!.input as { type: string; output?: unknown }[])
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
});
