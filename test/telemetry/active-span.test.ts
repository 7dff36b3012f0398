// With a context manager registered (as the Node SDK does), a step's span is the active one during its
// model call and a tool call's during the call: spans the AI SDK or the tool's own code opens nest there.
import "../fixtures/store/register.js";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool, PromptRunner, type AiSdkAdapterSettings } from "entity-tools";
import { call, mockModel, text } from "../support/mock-model.js";
import { memoryTracer, spanTree } from "../support/span-tree.js";

const manager = new AsyncLocalStorageContextManager();
beforeAll(() => void context.setGlobalContextManager(manager.enable()));
afterAll(() => {
  manager.disable();
  context.disable();
});

describe("the active span", () => {
  it("a tool's own spans are children of its execute_tool span", async () => {
    const { tracer, spans } = memoryTracer();
    const lookup = defineTool<{ id: string }>({
      name: "lookup",
      description: "Look an order up",
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      execute: async ({ id }) => {
        const span = tracer.startSpan("db.query"); // parent: the active context
        await new Promise((resolve) => setTimeout(resolve, 5));
        span.end();
        return `order ${id}`;
      },
    });
    await new PromptRunner({ model: mockModel(call("lookup", { id: "o1" }), text("done")) })
      .withTools(lookup)
      .withTelemetry({ tracer })
      .run("q");
    expect(spanTree(spans())).toEqual([
      "entity_tools.run",
      "  chat mock-model-id",
      "  execute_tool lookup",
      "    db.query",
      "  chat mock-model-id",
    ]);
  });

  it("with the AI SDK's telemetry on too, its spans nest under the step's chat span, one model call per step", async () => {
    const { tracer, spans } = memoryTracer();
    const echo = defineTool<{ text: string }>({
      name: "echo",
      description: "Echo",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      execute: ({ text }) => text,
    });
    const telemetry = { isEnabled: true, tracer } as AiSdkAdapterSettings["experimental_telemetry"];
    await new PromptRunner({
      model: mockModel(call("echo", { text: "a" }), text("done")),
      modelSettings: { experimental_telemetry: telemetry },
    })
      .withTools(echo)
      .withTelemetry({ tracer })
      .run("q");
    const chats = spans().filter((s) => s.name.startsWith("chat "));
    expect(chats).toHaveLength(2);
    // Every span the SDK opened (ai 6; ai 7 reports to integrations instead) is inside one of our steps.
    const sdkSpans = spans().filter((s) => s.name.startsWith("ai."));
    const chatIds = new Set(chats.map((c) => c.spanContext().spanId));
    const sdkRoots = sdkSpans.filter(
      (s) => !sdkSpans.some((p) => p.spanContext().spanId === s.parentSpanContext?.spanId),
    );
    expect(sdkRoots).toHaveLength(process.env["ENTITY_TOOLS_LANE"] === "ai7" ? 0 : 2); // one SDK call per step
    for (const root of sdkRoots) expect(chatIds.has(root.parentSpanContext?.spanId ?? "")).toBe(true);
    expect(trace.getActiveSpan()).toBeUndefined(); // nothing leaks into the caller's context
  });
});
