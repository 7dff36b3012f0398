import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, LlmTool, PromptRunner, toolContent, toolImage, type ToolLoopEvent } from "entity-tools";
import {
  startAnthropicMessagesMock,
  type AnthropicMessagesMock,
} from "../../src/testing/anthropic-messages-mock.js";
import { startOpenAiMock, type OpenAiMock } from "../support/openai-mocks.js";
import { TINY_PNG, TINY_PNG_BASE64 } from "../support/tiny-png.js";

let openAiMock: OpenAiMock | undefined;
let anthropicMock: AnthropicMessagesMock | undefined;
afterEach(async () => {
  await openAiMock?.close();
  await anthropicMock?.close();
  openAiMock = anthropicMock = undefined;
});

const chart = defineTool({
  name: "spendChart",
  description: "A chart of the customer's monthly spend",
  execute: () => toolContent("Monthly spend, last 12 months:", toolImage(TINY_PNG, "image/png")),
});

/** The same tool as an `@LlmTool` method of a plain tool object. */
class Charts {
  @LlmTool("A chart of the customer's monthly spend")
  spendChart() {
    return toolContent("Monthly spend, last 12 months:", toolImage(TINY_PNG, "image/png"));
  }
}

const script = [{ toolCalls: [{ name: "spendChart", input: {} }] }, { text: "It rises." }];

async function overOpenAi(api: "chat" | "responses", tools: object = chart) {
  openAiMock = await startOpenAiMock(api, script);
  const openai = createOpenAI({ baseURL: openAiMock.baseURL, apiKey: "test-key" });
  const events: ToolLoopEvent[] = [];
  const run = await new PromptRunner({
    model: api === "chat" ? openai.chat("gpt-test") : openai.responses("gpt-test"),
    modelSettings: { maxRetries: 0 },
  })
    .withTools(tools)
    .withObserver((e) => events.push(e))
    .run("How does the spend go?");
  return { run, events, body: openAiMock.requests[1]!.body };
}

describe("a local tool returning an image, through the real providers over HTTP", () => {
  it("OpenAI Responses (an @LlmTool method): the picture is an input_image in the function_call_output, after the text", async () => {
    const { run, events, body } = await overOpenAi("responses", new Charts());
    expect(run.result).toBe("It rises.");
    const output = (body.input as { type: string; output?: unknown }[]).find(
      (item) => item.type === "function_call_output",
    )?.output;
    expect(output).toEqual([
      { type: "input_text", text: "Monthly spend, last 12 months:" },
      { type: "input_image", image_url: `data:image/png;base64,${TINY_PNG_BASE64}` },
    ]);
    expect(events.filter((e) => e.type === "ModelWarning")).toEqual([]);
  });

  it("Anthropic Messages (a defineTool tool): the picture is an image block in the tool_result", async () => {
    anthropicMock = await startAnthropicMessagesMock((request) =>
      request.toolResults.length === 0
        ? { toolCalls: [{ name: "spendChart", input: {} }] }
        : { text: "It rises." },
    );
    const anthropic = createAnthropic({ baseURL: `${anthropicMock.baseURL}/v1`, apiKey: "test-key" });
    const stream = new PromptRunner({
      model: anthropic("claude-sonnet-4-5"),
      modelSettings: { maxRetries: 0 },
    })
      .withTools(chart)
      .stream("How does the spend go?");
    expect((await stream.result).result).toBe("It rises.");
    const second = anthropicMock.requests[1]!.body.messages.at(-1)!.content as {
      type: string;
      content?: unknown;
    }[];
    expect(second.find((b) => b.type === "tool_result")?.content).toEqual([
      { type: "text", text: "Monthly spend, last 12 months:" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: TINY_PNG_BASE64 } },
    ]);
  });

  it("OpenAI Chat Completions (text-only tool messages): a text description, no base64, and a ModelWarning", async () => {
    const { run, events, body } = await overOpenAi("chat");
    expect(run.result).toBe("It rises.");
    const tool = (body.messages as { role: string; content: unknown }[]).find((m) => m.role === "tool");
    expect(tool?.content).toBe(
      "Monthly spend, last 12 months:\n[image image/png] (not shown: this model does not take image/png in tool results)",
    );
    expect(JSON.stringify(body)).not.toContain(TINY_PNG_BASE64);
    const warnings = events.filter((e) => e.type === "ModelWarning");
    expect(warnings).toEqual([
      expect.objectContaining({
        iteration: 1,
        message: expect.stringContaining(`"spendChart" holds an image (image/png, ${TINY_PNG.length} bytes)`),
      }),
    ]);
  });
});
