// withTelemetry through the OpenTelemetry SDK's in-memory exporter: the span tree of a discovery run, a
// streamed run, a restarted disclosure run and an approval pause/resume, as an operator's backend shows it.
import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import { AiSdkAdapter, defineTool, PromptRunner, type ModelAdapter, type ToolLoopResult } from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { supportPrompt } from "../fixtures/store/support-prompt.js";
import { call, mockModel, text } from "../support/mock-model.js";
import { memoryTracer, spanTree } from "../support/span-tree.js";

const INJECTED_JOHN =
  "· tools.injected customer_c123_getAverageSpend,customer_c123_recentOrders by searchCustomer from Customer:c123";

describe("withTelemetry: the span tree", () => {
  it("a discovery run: a run span, a chat span per step and a tool span per call; the injection on the call that caused it", async () => {
    const { tracer, spans } = memoryTracer();
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("customer_c123_getAverageSpend"),
      { text: "46.83", usage: { inputTokens: 120, outputTokens: 9 } },
    );
    await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withTelemetry({ tracer })
      .run("What does John spend?");

    expect(spanTree(spans())).toEqual([
      "entity_tools.run",
      "  chat mock-model-id",
      "  execute_tool searchCustomer",
      `    ${INJECTED_JOHN}`,
      "  chat mock-model-id",
      "  execute_tool customer_c123_getAverageSpend",
      "  chat mock-model-id",
    ]);
    const [run] = spans().filter((s) => s.name === "entity_tools.run");
    expect(run!.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "entity_tools.run.status": "completed",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 9,
    });
    const lastStep = spans()
      .filter((s) => s.name.startsWith("chat"))
      .at(-1)!;
    expect(lastStep.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "mock-model-id",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 9,
      "entity_tools.step": 3,
    });
    const search = spans().find((s) => s.name === "execute_tool searchCustomer")!;
    expect(search.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "searchCustomer",
      "gen_ai.tool.call.id": expect.any(String),
    });
    // Content is off by default: no arguments, results or model text on any span.
    for (const span of spans())
      expect(Object.keys(span.attributes).filter((k) => /arguments|result|text/.test(k))).toEqual([]);
  });

  it("an eviction by the tool budget is a tools.removed event (cause: evicted) on the call that made room", async () => {
    const { tracer, spans } = memoryTracer();
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("searchCustomer", { name: "Jane Smith" }),
      text("done"),
    );
    await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery({ maxInjectedTools: 2 })
      .withTelemetry({ tracer })
      .run("q");
    expect(spanTree(spans())).toEqual([
      "entity_tools.run",
      "  chat mock-model-id",
      "  execute_tool searchCustomer",
      `    ${INJECTED_JOHN}`,
      "  chat mock-model-id",
      "  execute_tool searchCustomer",
      "    · tools.injected customer_c456_getAverageSpend,customer_c456_recentOrders by searchCustomer from Customer:c456",
      "    · tools.removed customer_c123_getAverageSpend,customer_c123_recentOrders by evicted from Customer:c123",
      "  chat mock-model-id",
    ]);
  });

  it("records arguments and results only with recordContent", async () => {
    const { tracer, spans } = memoryTracer();
    await new PromptRunner({ model: mockModel(call("searchCustomer", { name: "Nobody" }), text("none")) })
      .withTools(new CustomerSearchTools())
      .withTelemetry({ tracer, recordContent: true })
      .run("q");
    expect(spans().find((s) => s.name === "execute_tool searchCustomer")!.attributes).toMatchObject({
      "gen_ai.tool.call.arguments": '{"name":"Nobody"}',
      "gen_ai.tool.call.result": 'No customer is named "Nobody"',
    });
  });

  it("a streamed run has the same shape as run()", async () => {
    const traces: string[][] = [];
    for (const streamed of [false, true]) {
      const { tracer, spans } = memoryTracer();
      const fake = new FakePromptRunner();
      fake
        .callTool("searchCustomer", { name: "John Smith" })
        .callTool(/^customer_.+_getAverageSpend$/)
        .respondWithText("46.83");
      const runner = fake
        .withTools(new CustomerSearchTools())
        .withToolProviderDiscovery()
        .withTelemetry({ tracer });
      if (streamed) await runner.stream("q").result;
      else await runner.run("q");
      traces.push(spanTree(spans()));
    }
    expect(traces[1]).toEqual(traces[0]);
    expect(traces[1]).toEqual([
      "entity_tools.run",
      "  chat scripted",
      "  execute_tool searchCustomer",
      `    ${INJECTED_JOHN}`,
      "  chat scripted",
      "  execute_tool customer_c123_getAverageSpend",
      "  chat scripted",
    ]);
  });

  it("a disclosure run that restarts: the restart is an event on the run span, the steps go on under it", async () => {
    const { tracer, spans } = memoryTracer();
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("read_section", { section_key: "policies" }),
      call("checkRefundEligibility", { orderId: "o-1002" }),
      text("eligible"),
    );
    const inner = new AiSdkAdapter(model);
    const staticTools: ModelAdapter = { supportsDynamicTools: false, step: (r) => inner.step(r) };
    await new PromptRunner({ adapter: staticTools })
      .withTools(new CustomerSearchTools())
      .withSystemPrompt(supportPrompt(), { company: "Acme" })
      .withTelemetry({ tracer })
      .run("Refund o-1002?");
    expect(spanTree(spans())).toEqual([
      "entity_tools.run",
      "  · tools.restart checkRefundEligibility,issueRefund by expansion",
      "  chat mock-model-id",
      "  execute_tool searchCustomer",
      "  chat mock-model-id",
      "  execute_tool read_section",
      "  chat mock-model-id",
      "  execute_tool checkRefundEligibility",
      "  chat mock-model-id",
    ]);
    const run = spans().find((s) => s.name === "entity_tools.run")!;
    expect(run.events[0]!.attributes).toMatchObject({ "entity_tools.section": "policies" });
  });

  it("an approval pause and its resume: two run spans, the second marked resumed, the approved call under it", async () => {
    const { tracer, spans } = memoryTracer();
    const refund = defineTool({
      name: "refund",
      description: "Refund an order",
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      needsApproval: true,
      execute: ({ id }: { id: string }) => `refunded ${id}`,
    });
    const model = mockModel(call("refund", { id: "o1" }), text("done"));
    const runner = new PromptRunner({ model }).withTools(refund).withTelemetry({ tracer });
    const paused: ToolLoopResult<string> = await runner.run("refund o1");
    expect(paused.status).toBe("awaiting-approval");
    await runner.resume(paused.snapshot, {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
    });

    expect(spanTree(spans())).toEqual([
      "entity_tools.run",
      "  chat mock-model-id",
      "entity_tools.run",
      "  execute_tool refund",
      "  chat mock-model-id",
    ]);
    const runs = spans().filter((s) => s.name === "entity_tools.run");
    expect(
      runs.map((s) => [s.attributes["entity_tools.run.status"], s.attributes["entity_tools.run.resumed"]]),
    ).toEqual([
      ["awaiting-approval", false],
      ["completed", true],
    ]);
  });

  it("a failed run records the exception with our error class on the run span and the step that failed", async () => {
    const { tracer, spans } = memoryTracer();
    const model = mockModel(() => {
      throw new Error("provider down");
    });
    const runner = new PromptRunner({ model, modelSettings: { maxRetries: 0 } }).withTelemetry({ tracer });
    await expect(runner.run("q")).rejects.toThrow();
    expect(spanTree(spans())).toEqual([
      "entity_tools.run !ModelCallError",
      "  · exception ModelCallError",
      "  chat !ModelCallError",
      "    · exception ModelCallError",
    ]);
  });
});
