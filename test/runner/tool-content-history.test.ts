import { createOpenAI } from "@ai-sdk/openai";
import type { ModelMessage, ToolResultPart } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import {
  defineTool,
  LlmTool,
  PromptRunner,
  ToolProvider,
  toolContent,
  toolImage,
  type AnyTool,
  type ToolLoopEvent,
} from "entity-tools";
import { startOpenAiMock, type OpenAiMock } from "../support/openai-mocks.js";
import { call, mockModel, offeredAt, text } from "../support/mock-model.js";
import { TINY_PNG, TINY_PNG_BASE64 } from "../support/tiny-png.js";

let mock: OpenAiMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const chart = defineTool({
  name: "spendChart",
  description: "A chart of the customer's monthly spend",
  execute: () => toolContent("Monthly spend:", toolImage(TINY_PNG, "image/png")),
});
const refund = defineTool({
  name: "refund",
  description: "Refund the last order",
  needsApproval: true,
  execute: () => "refunded",
});

const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const functionOutputs = (body: Record<string, unknown>) =>
  (body.input as { type: string; output?: unknown }[])
    .filter((i) => i.type === "function_call_output")
    .map((i) => i.output);
const IMAGE_INPUT = { type: "input_image", image_url: `data:image/png;base64,${TINY_PNG_BASE64}` };

function runner(): PromptRunner {
  const openai = createOpenAI({ baseURL: mock!.baseURL, apiKey: "test-key" });
  return new PromptRunner({
    model: openai.responses("gpt-test"),
    modelSettings: { maxRetries: 0 },
  }).withTools(chart, refund);
}

describe("a result with an image in history, snapshots and conversations", () => {
  it("a paused run's snapshot holds the image as plain JSON; resumed from JSON, the model still sees the picture", async () => {
    mock = await startOpenAiMock("responses", [
      {
        toolCalls: [
          { name: "spendChart", input: {} },
          { name: "refund", input: {} },
        ],
      },
      { text: "Refunded; spend is flat." },
    ]);
    const paused = await runner().run("Chart the spend, then refund");
    expect(paused.status).toBe("awaiting-approval");
    const snapshot = asJson(paused.snapshot);
    expect(JSON.stringify(snapshot)).toContain(TINY_PNG_BASE64);
    const resumed = await runner().resume(snapshot, {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
    });
    expect(resumed.result).toBe("Refunded; spend is flat.");
    expect(functionOutputs(mock.requests[1]!.body)).toEqual([
      [{ type: "input_text", text: "Monthly spend:" }, IMAGE_INPUT],
      "refunded",
    ]);
  });

  it("continueFrom a JSON snapshot: the next turn's request still carries the picture", async () => {
    mock = await startOpenAiMock("responses", [
      { toolCalls: [{ name: "spendChart", input: {} }] },
      { text: "It is flat." },
      { text: "Yes, flat all year." },
    ]);
    const first = await runner().run("Chart the spend");
    const next = await runner().run("Flat all year?", { continueFrom: asJson(first.snapshot) });
    expect(next.result).toBe("Yes, flat all year.");
    expect(functionOutputs(mock.requests[2]!.body)).toEqual([
      [{ type: "input_text", text: "Monthly spend:" }, IMAGE_INPUT],
    ]);
  });

  it("the stream's tool-result part carries the parts, the history the content output", async () => {
    mock = await startOpenAiMock("responses", [
      { toolCalls: [{ name: "spendChart", input: {} }] },
      { text: "Flat." },
    ]);
    const stream = runner().stream("Chart the spend");
    const results: unknown[] = [];
    for await (const part of stream.parts) if (part.type === "tool-result") results.push(part);
    expect(results).toEqual([
      expect.objectContaining({
        output: "Monthly spend:\n[image image/png]",
        parts: [
          { type: "text", text: "Monthly spend:" },
          { type: "image", data: TINY_PNG_BASE64, mediaType: "image/png" },
        ],
      }),
    ]);
    const history = (await stream.result).conversationHistory;
    expect(toolOutputs(history)).toEqual([
      {
        type: "content",
        value: [
          { type: "text", text: "Monthly spend:" },
          { type: "image-data", data: TINY_PNG_BASE64, mediaType: "image/png" },
        ],
      },
    ]);
  });

  it("the UI message stream: the tool output is the text, and the picture follows as a file part", async () => {
    mock = await startOpenAiMock("responses", [
      { toolCalls: [{ name: "spendChart", input: {} }] },
      { text: "Flat." },
    ]);
    const chunks: { type: string }[] = [];
    const reader = runner().stream("Chart the spend").toUIMessageStream().getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    const at = chunks.findIndex((c) => c.type === "tool-output-available");
    expect(chunks[at]).toMatchObject({ output: "Monthly spend:\n[image image/png]" });
    expect(chunks[at + 1]).toEqual({
      type: "file",
      url: `data:image/png;base64,${TINY_PNG_BASE64}`,
      mediaType: "image/png",
    });
  });
});

function toolOutputs(history: readonly ModelMessage[]): ToolResultPart["output"][] {
  return history.flatMap((m) =>
    m.role === "tool" ? (m.content as ToolResultPart[]).map((p) => p.output) : [],
  );
}

describe("limits of a result with media", () => {
  async function outputOf(tool: AnyTool, configure: (r: PromptRunner) => PromptRunner) {
    const events: ToolLoopEvent[] = [];
    const model = mockModel(call(tool.name), text("done"));
    const run = await configure(new PromptRunner({ model }).withTools(tool))
      .withObserver((e) => events.push(e))
      .run("go");
    return {
      output: toolOutputs(run.conversationHistory)[0]!,
      warnings: events.filter((e) => e.type === "ModelWarning"),
    };
  }
  const parts = (...items: unknown[]) =>
    defineTool({ name: "parts", description: "parts", execute: () => toolContent(...items) });

  it("maxResultChars counts the text parts only: exactly at the limit nothing is cut, one more is cut", async () => {
    const image = toolImage(TINY_PNG, "image/png");
    const atLimit = await outputOf(parts("abcde", image, "fghij"), (r) => r.withMaxResultChars(10));
    expect(atLimit.output).toMatchObject({
      type: "content",
      value: [{ text: "abcde" }, { type: "image-data" }, { text: "fghij" }],
    });
    const over = await outputOf(parts("abcde", image, "fghijk"), (r) => r.withMaxResultChars(10));
    expect(over.output).toMatchObject({
      type: "content",
      value: [
        { text: "abcde" },
        { type: "image-data" },
        { text: "fghij\n[truncated: the result was 6 characters; the first 5 are shown]" },
      ],
    });
  });

  it("the media byte limit: an image of exactly the limit is sent; one byte over, a note and a ModelWarning", async () => {
    const tool = parts("chart:", toolImage(TINY_PNG, "image/png"));
    const atLimit = await outputOf(tool, (r) => r.withMaxResultMediaBytes(TINY_PNG.length));
    expect(atLimit.output).toMatchObject({
      type: "content",
      value: [{ text: "chart:" }, { type: "image-data" }],
    });
    expect(atLimit.warnings).toEqual([]);
    const over = await outputOf(tool, (r) => r.withMaxResultMediaBytes(TINY_PNG.length - 1));
    expect(over.output).toEqual({
      type: "text",
      value: `chart:\n[image image/png] (not shown: ${TINY_PNG.length} bytes, over the limit of ${TINY_PNG.length - 1} bytes for a result's media)`,
    });
    expect(over.warnings).toEqual([
      expect.objectContaining({ message: expect.stringContaining("withMaxResultMediaBytes") }),
    ]);
  });

  it("withToolResultMediaTypes overrides what the backend declares: a provider we do not know, text only", async () => {
    const tool = parts("chart:", toolImage(TINY_PNG, "image/png"));
    const passed = await outputOf(tool, (r) => r);
    expect(passed.output).toMatchObject({ type: "content" });
    const textOnly = await outputOf(tool, (r) => r.withToolResultMediaTypes([]));
    expect(textOnly.output).toEqual({
      type: "text",
      value: "chart:\n[image image/png] (not shown: this model does not take image/png in tool results)",
    });
    expect(textOnly.warnings).toHaveLength(1);
    const pngOnly = await outputOf(tool, (r) => r.withToolResultMediaTypes(["image/png"]));
    expect(pngOnly.output).toMatchObject({ type: "content" });
  });

  it("a value given beside the parts is sent as JSON text, in its place", async () => {
    const result = await outputOf(parts({ total: 46.83 }, toolImage(TINY_PNG, "image/png")), (r) => r);
    expect(result.output).toMatchObject({
      type: "content",
      value: [{ type: "text", text: '{"total":46.83}' }, { type: "image-data" }],
    });
  });

  it("discovery finds a provider given beside the picture, and the model reads it as JSON text", async () => {
    @ToolProvider({ prefix: "report" })
    class Report {
      constructor(public id: string) {}
      @LlmTool("Summarize this report")
      summary(): string {
        return "flat";
      }
    }
    const tool = parts(new Report("r1"), toolImage(TINY_PNG, "image/png"));
    const model = mockModel(call("parts"), text("done"));
    const run = await new PromptRunner({ model }).withTools(tool).withToolProviderDiscovery().run("go");
    expect(offeredAt(model, 1)).toContain("report_r1_summary");
    expect(toolOutputs(run.conversationHistory)[0]).toMatchObject({
      type: "content",
      value: [{ type: "text", text: '{"id":"r1"}' }, { type: "image-data" }],
    });
  });
});
