// A model given by id whose default provider routes each call (a fallback router): a step routed to
// another model than the step before is made as for that model, not with what was made for the other.
import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { generateText } from "ai";
import { afterAll, expect, it } from "vitest";
import { defineTool, PromptRunner, toolContent, toolImage, type ToolLoopEvent } from "entity-tools";
import { generateResult } from "entity-tools/testing";

const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: unknown };
const saved = global.AI_SDK_DEFAULT_PROVIDER;
afterAll(() => void (global.AI_SDK_DEFAULT_PROVIDER = saved));

const echo = defineTool<{ text: string }>({
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }) => text,
});

/**
 * A model that calls `echo` at its first call and answers "done" after; it reads image URLs itself or not.
 * Its calls are kept as they came (ai 7's mock models clone them, which a URL in the prompt does not survive).
 */
function model(modelId: string, readsUrls: boolean) {
  const calls: LanguageModelV3CallOptions[] = [];
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: `${modelId}.chat`,
    modelId,
    supportedUrls: readsUrls ? { "image/*": [/^https:\/\//] } : {},
    doGenerate: async (options) => {
      calls.push(options);
      const turn =
        calls.length === 1 ? { toolCalls: [{ toolName: "echo", input: { text: "a" } }] } : { text: "done" };
      return generateResult(turn);
    },
    doStream: () => Promise.reject(new Error("not streamed here")),
  };
  return { model, calls };
}

// The SDK converts a prompt for its model: an image URL one model reads itself is downloaded for one that
// does not (as `generateText` with that model does). The conversion made for the first model was reused for
// the second, which was sent a URL it does not read. Here the download cannot succeed (`.invalid` is never a
// host), so the run fails as the SDK's own step with that model fails, and the other model is never sent it.
it("converts the conversation again for a step routed to another model: an image URL it does not read is downloaded", async () => {
  const url = "https://chart.invalid/spend.png";
  const reader = model("reader", true);
  const other = model("other", false);
  global.AI_SDK_DEFAULT_PROVIDER = {
    languageModel: () => (reader.calls.length === 0 ? reader : other).model,
  };
  const prompt = [
    {
      role: "user" as const,
      content: [
        { type: "text" as const, text: "What does the chart show?" },
        { type: "image" as const, image: url },
      ],
    },
  ];
  const run = new PromptRunner({ model: "any", modelSettings: { maxRetries: 0 } })
    .withTools(echo)
    .run(prompt);
  await expect(run).rejects.toThrow(`Failed to download ${url}`);
  const image = reader.calls[0]!.prompt[0]!.content[1];
  expect(image).toMatchObject({ type: "file", data: new URL(url) }); // the first model reads it itself
  expect(other.calls).toEqual([]);
});

// What a run keeps of its first step's call options is built by the SDK from the settings alone (both
// lanes: sampling, limits, provider options, headers), not from the model: a step routed to another model
// gets what `generateText` with that model sends.
it("sends a step routed to another model the call options generateText sends that model", async () => {
  const first = model("first", true);
  const second = model("second", true);
  global.AI_SDK_DEFAULT_PROVIDER = {
    languageModel: () => (first.calls.length === 0 ? first : second).model,
  };
  const modelSettings = {
    maxRetries: 0,
    temperature: 0.3,
    maxOutputTokens: 99,
    headers: { "x-team": "search" },
    providerOptions: { second: { effort: "low" }, first: { effort: "high" } },
  };
  expect((await new PromptRunner({ model: "any", modelSettings }).withTools(echo).run("go")).result).toBe(
    "done",
  );
  const alone = model("second", true);
  const { maxRetries: _, ...settings } = modelSettings;
  await generateText({ model: alone.model, prompt: "go", ...settings, maxRetries: 0 });
  const { prompt: _p, tools: _t, toolChoice: _c, abortSignal: _s, ...routed } = second.calls[0]!;
  const { prompt: _q, tools: _u, toolChoice: _d, abortSignal: _a, ...own } = alone.calls[0]!;
  expect(routed).toEqual(own);
  expect(routed).toMatchObject({ temperature: 0.3, maxOutputTokens: 99 });
});

/**
 * A run of `chart` (an image result) with a model given by id, routed to Anthropic's model (which takes
 * images in a tool result) until it answered, then to OpenAI Chat Completions' (which takes none): what the
 * second model was sent as the results, and the warnings.
 */
async function routedChart(declared?: string[]) {
  const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
  const chart = defineTool({
    name: "chart",
    description: "The spend chart",
    execute: () => toolContent("Spend by month:", toolImage(png, "image/png")),
  });
  const routed = (provider: string) => {
    const calls: LanguageModelV3CallOptions[] = [];
    const model: LanguageModelV3 = {
      specificationVersion: "v3",
      provider,
      modelId: provider,
      supportedUrls: {},
      doGenerate: async (options) =>
        generateResult(
          calls.push(options) === 1 ? { toolCalls: [{ toolName: "chart", input: {} }] } : { text: "done" },
        ),
      doStream: () => Promise.reject(new Error("not streamed here")),
    };
    return { model, calls };
  };
  const anthropic = routed("anthropic.messages");
  const chat = routed("openai.chat");
  global.AI_SDK_DEFAULT_PROVIDER = {
    languageModel: () => (anthropic.calls.length === 0 ? anthropic : chat).model,
  };
  const events: ToolLoopEvent[] = [];
  let runner = new PromptRunner({ model: "any", modelSettings: { maxRetries: 0 } })
    .withTools(chart)
    .withObserver((e) => events.push(e));
  if (declared) runner = runner.withToolResultMediaTypes(declared);
  expect((await runner.run("Spend?")).result).toBe("done");
  const results = chat.calls[1]!.prompt.flatMap((m) =>
    m.role === "tool" ? m.content.map((p) => p.type === "tool-result" && p.output) : [],
  );
  const warnings = events.flatMap((e) => (e.type === "ModelWarning" ? [e.message] : []));
  return { results, warnings };
}

// What a tool result's media reach the model as is decided when the run starts, by the model the id
// resolves to then (Anthropic: images). A step routed to a model that takes none in a tool result (OpenAI
// Chat Completions) is sent the text description the run would have made for it, with its warning.
it("describes to a step routed to another model the media that model does not take in a tool result", async () => {
  const { results, warnings } = await routedChart();
  const description = "[image image/png] (not shown: this model does not take image/png in tool results)";
  // Both results, the one made before the switch and the one after, in the form Chat Completions takes.
  expect(results).toEqual([
    { type: "text", value: `Spend by month:\n${description}` },
    { type: "text", value: `Spend by month:\n${description}` },
  ]);
  expect(warnings).toEqual([
    expect.stringContaining('"chart" holds an image (image/png, 8 bytes), which this model does not take'),
    expect.stringContaining('"chart" holds an image (image/png, 8 bytes), which this model does not take'),
  ]);
});

// The media declared for the run (withToolResultMediaTypes) are what the model takes, whichever it is.
it("sends every model of the run the media declared for it", async () => {
  const { results, warnings } = await routedChart(["image/png"]);
  expect(results).toEqual([
    {
      type: "content",
      value: [{ type: "text", text: "Spend by month:" }, expect.objectContaining({ mediaType: "image/png" })],
    },
    {
      type: "content",
      value: [{ type: "text", text: "Spend by month:" }, expect.objectContaining({ mediaType: "image/png" })],
    },
  ]);
  expect(warnings).toEqual([]);
});
