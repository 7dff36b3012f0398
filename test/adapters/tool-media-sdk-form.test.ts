// Tool results with media, as the installed AI SDK takes them: on ai 7 its `file` items (no deprecation
// warning for our own output), the provider's request unchanged, the history still in the items both
// majors read. Through the real providers over HTTP, on a direct step and on a step through the SDK.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import type { ModelMessage } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { defineTool, PromptRunner, toolContent, toolFile, toolImage } from "entity-tools";
import {
  startAnthropicMessagesMock,
  type AnthropicMessagesMock,
} from "../../src/testing/anthropic-messages-mock.js";
import { sdkInternals } from "../../src/adapters/sdk-internals.js";
import { sdkMessages } from "../../src/adapters/sdk-tool-output.js";
import { startOpenAiMock, type OpenAiMock } from "../support/openai-mocks.js";
import { TINY_PNG, TINY_PNG_BASE64 } from "../support/tiny-png.js";

const ai7 = process.env["ENTITY_TOOLS_LANE"] === "ai7";
const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const PDF_BASE64 = PDF.toString("base64");
const CHART_URL = "https://charts.example.com/spend.png";

const report = defineTool({
  name: "spendReport",
  description: "The customer's spend: a chart and the statement",
  execute: () =>
    toolContent(
      "Spend:",
      toolImage(TINY_PNG, "image/png"),
      toolImage(new URL(CHART_URL), "image/png"),
      toolFile(PDF, "application/pdf", { filename: "statement.pdf" }),
    ),
});

/** Every warning the AI SDK logs (ai 6 and ai 7 both hand them to this global when it is a function). */
const logged: { type: string; setting?: string }[] = [];
beforeAll(() => {
  vi.stubGlobal("AI_SDK_LOG_WARNINGS", (options: { warnings: { type: string }[] }) =>
    logged.push(...options.warnings),
  );
});
afterAll(() => {
  vi.unstubAllGlobals();
});

let openAiMock: OpenAiMock | undefined;
let anthropicMock: AnthropicMessagesMock | undefined;
afterEach(async () => {
  await openAiMock?.close();
  await anthropicMock?.close();
  openAiMock = anthropicMock = undefined;
  logged.length = 0;
});

describe("a tool returning an image and a PDF, through the real providers", () => {
  it("Anthropic Messages, direct step: the same blocks as ever, no deprecation warning, the history in the old items", async () => {
    anthropicMock = await startAnthropicMessagesMock((request) =>
      request.toolResults.length === 0
        ? { toolCalls: [{ name: "spendReport", input: {} }] }
        : { text: "Steady." },
    );
    const anthropic = createAnthropic({ baseURL: `${anthropicMock.baseURL}/v1`, apiKey: "test-key" });
    const run = await new PromptRunner({
      model: anthropic("claude-sonnet-4-5"),
      modelSettings: { maxRetries: 0 },
    })
      .withTools(report)
      .run("How is the spend?");
    expect(run.result).toBe("Steady.");
    const sent = anthropicMock.requests[1]!.body.messages.at(-1)!.content as {
      type: string;
      content?: unknown;
    }[];
    expect(sent.find((b) => b.type === "tool_result")?.content).toEqual([
      { type: "text", text: "Spend:" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: TINY_PNG_BASE64 } },
      { type: "image", source: { type: "url", url: CHART_URL } },
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: PDF_BASE64 },
      },
    ]);
    expect(logged.filter((w) => w.type === "deprecated")).toEqual([]);
    // The conversation keeps the items ai 6 reads too (a snapshot continues on either major).
    const tool = run.conversationHistory.find((m) => m.role === "tool")!;
    const output = (tool.content[0] as { output: { value: { type: string }[] } }).output;
    expect(output.value.map((item) => item.type)).toEqual(["text", "image-data", "image-url", "file-data"]);
  });

  it("OpenAI Responses, every step through the SDK (its telemetry on): the same input items, no deprecation warning", async () => {
    openAiMock = await startOpenAiMock("responses", [
      { toolCalls: [{ name: "spendReport", input: {} }] },
      { text: "Steady." },
    ]);
    const openai = createOpenAI({ baseURL: openAiMock.baseURL, apiKey: "test-key" });
    const run = await new PromptRunner({
      model: openai.responses("gpt-test"),
      modelSettings: { maxRetries: 0, experimental_telemetry: { isEnabled: true } },
    })
      .withTools(report)
      .stream("How is the spend?").result;
    expect(run.result).toBe("Steady.");
    const input = openAiMock.requests[1]!.body.input as { type: string; output?: unknown }[];
    expect(input.find((item) => item.type === "function_call_output")?.output).toEqual([
      { type: "input_text", text: "Spend:" },
      { type: "input_image", image_url: `data:image/png;base64,${TINY_PNG_BASE64}` },
      { type: "input_image", image_url: CHART_URL },
      {
        type: "input_file",
        filename: "statement.pdf",
        file_data: `data:application/pdf;base64,${PDF_BASE64}`,
      },
    ]);
    expect(logged.filter((w) => w.type === "deprecated")).toEqual([]);
  });
});

describe("sdkMessages", () => {
  const history = (value: unknown[]): ModelMessage[] => [
    { role: "user", content: "go" },
    {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "c1", toolName: "t", output: { type: "content", value } }],
    } as ModelMessage,
  ];
  const itemsOf = (messages: ModelMessage[]) =>
    ((messages[1]!.content as { output: { value: unknown[] } }[])[0]!.output.value as { type: string }[]).map(
      (item) => item.type,
    );

  it("hands ai 7 file items, keeps an image whose bytes say another type as it was, and leaves the history alone", async () => {
    const messages = history([
      { type: "text", text: "a chart" },
      { type: "image-data", data: TINY_PNG_BASE64, mediaType: "image/png" },
      // PNG bytes said to be a JPEG: ai 7 would send a `file` item as image/png, the old item as image/jpeg.
      { type: "image-data", data: TINY_PNG_BASE64, mediaType: "image/jpeg" },
      { type: "file-url", url: "https://example.com/a.pdf", mediaType: "application/pdf" },
    ]);
    const handed = sdkMessages(messages, (await sdkInternals()).internals?.mapToolOutput);
    expect(itemsOf(handed)).toEqual(
      ai7 ? ["text", "file", "image-data", "file"] : ["text", "image-data", "image-data", "file-url"],
    );
    expect(itemsOf(messages)).toEqual(["text", "image-data", "image-data", "file-url"]);
    expect(handed[0]).toBe(messages[0]);
  });

  it("returns the very array when no tool output holds media", async () => {
    const messages = history([{ type: "text", text: "plain" }]);
    expect(sdkMessages(messages, (await sdkInternals()).internals?.mapToolOutput)).toBe(messages);
  });
});
