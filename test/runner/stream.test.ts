// runner.stream(): the run's parts as they happen, the same result as run(), and the AI SDK UI message
// stream protocol read back with the SDK's own client-side reader.
import "../fixtures/store/register.js";
import { readUIMessageStream, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  ModelCallError,
  PromptRunner,
  ToolLoopAbortedError,
  type RunStreamPart,
} from "entity-tools";
import { FakePromptRunner, ScriptedLanguageModel } from "entity-tools/testing";
import { SpendAnswer } from "../fixtures/store/answers.js";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";

function spendRun() {
  const fake = new FakePromptRunner();
  fake
    .respondWith("look John up", () => ({
      text: "Let me look.",
      toolCalls: [{ toolName: "searchCustomer", input: { name: "John Smith" } }],
    }))
    .callTool(/^customer_.+_getAverageSpend$/)
    .respondWithText("John spends 46.83 USD a month.");
  return { fake, runner: fake.withTools(new CustomerSearchTools()).withToolProviderDiscovery() };
}

async function collect(parts: AsyncIterable<RunStreamPart>): Promise<RunStreamPart[]> {
  const seen: RunStreamPart[] = [];
  for await (const part of parts) seen.push(part);
  return seen;
}

describe("runner.stream", () => {
  it("reports text, calls, results, injections and steps as they happen; tools found are offered at the next step", async () => {
    const { fake, runner } = spendRun();
    const stream = runner.stream("What does John spend?");
    const parts = await collect(stream.parts);
    const run = await stream.result;
    const kinds = parts.map((p) => (p.type === "text-delta" ? `text:${p.text}` : p.type));
    expect(kinds).toEqual([
      "text:Let ",
      "text:me ",
      "text:look.",
      "tool-call",
      "tools-injected",
      "tool-result",
      "step-finish",
      "tool-call",
      "tool-result",
      "step-finish",
      "text:John ",
      "text:spends ",
      "text:46.83 ",
      "text:USD ",
      "text:a ",
      "text:month.",
      "step-finish",
      "finish",
    ]);
    expect(parts[4]).toEqual({
      type: "tools-injected",
      names: ["customer_c123_getAverageSpend", "customer_c123_recentOrders"],
    });
    expect(parts[7]).toMatchObject({ type: "tool-call", toolName: "customer_c123_getAverageSpend" });
    expect(parts[8]).toMatchObject({
      type: "tool-result",
      output: '{"amount":46.83,"currency":"USD"}',
      isError: false,
    });
    expect(fake.toolsOfferedAt(2)).toContain("customer_c123_getAverageSpend");
    expect(run.result).toBe("John spends 46.83 USD a month.");
    expect(parts.at(-1)).toEqual({ type: "finish", result: run });
  });

  it("validates structured output at the end, as run() does", async () => {
    const fake = new FakePromptRunner();
    fake
      .respondWithText("not json")
      .respondWithObject({ customerName: "J", averageMonthlySpend: 1, currency: "USD" });
    const stream = fake.stream("q", { output: SpendAnswer });
    await collect(stream.parts);
    const run = await stream.result;
    expect(run.result).toBeInstanceOf(SpendAnswer);
    expect(run.counters.modelCalls).toBe(2);
  });

  it("a failed run rejects result and ends parts by throwing the same ToolLoopError", async () => {
    const model = new ScriptedLanguageModel();
    const runner = new PromptRunner({ model, modelSettings: { maxRetries: 0 } });
    const stream = runner.stream("q"); // nothing scripted: the model call fails
    const thrown = await collect(stream.parts).catch((e: unknown) => e);
    const rejected = await stream.result.catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ModelCallError);
    expect(rejected).toBe(thrown);
  });

  it("cancellation through the signal", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    const { runner } = spendRun();
    const stream = runner.stream("q", { signal: controller.signal });
    await expect(stream.result).rejects.toBeInstanceOf(ToolLoopAbortedError);
  });

  it("speaks the UI message stream protocol: useChat's reader sees the text and each tool, discovered ones included", async () => {
    const { runner } = spendRun();
    let message: UIMessage | undefined;
    for await (const m of readUIMessageStream({
      stream: runner.stream("What does John spend?").toUIMessageStream(),
    }))
      message = m;
    const tools = message!.parts.filter((p) => p.type === "dynamic-tool");
    expect(tools.map((p) => [p.toolName, p.state])).toEqual([
      ["searchCustomer", "output-available"],
      ["customer_c123_getAverageSpend", "output-available"],
    ]);
    expect(tools[1]).toMatchObject({ output: '{"amount":46.83,"currency":"USD"}' });
    const texts = message!.parts.flatMap((p) => (p.type === "text" ? [p.text] : []));
    expect(texts).toEqual(["Let me look.", "John spends 46.83 USD a month."]);
    expect(message!.parts.filter((p) => p.type === "data-tools")).toHaveLength(1);
  });

  it("a streamed run that reaches a call needing approval ends with the same status as run()", async () => {
    const fake = new FakePromptRunner();
    const refund = defineTool({
      name: "refund",
      description: "Refund",
      needsApproval: true,
      execute: () => "done",
    });
    fake.callTool("refund");
    const stream = fake.withTools(refund).stream("Refund it");
    const parts = await collect(stream.parts);
    const run = await stream.result;
    expect(run.status).toBe("awaiting-approval");
    expect(run.pendingApprovals.map((p) => p.toolName)).toEqual(["refund"]);
    expect(parts.map((p) => p.type)).toEqual(["tool-call", "step-finish", "tool-approval-request", "finish"]);
  });
});
