// A model given by id whose default provider routes each call (a fallback router): a step routed to
// another model than the step before is made as for that model, not with what was made for the other.
import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { generateText } from "ai";
import { afterAll, expect, it } from "vitest";
import { defineTool, PromptRunner } from "entity-tools";
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
