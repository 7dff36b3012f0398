// A direct step's provider warnings are logged as `generateText` would log them. ai 6 does not export its
// logger, so a direct step with warnings was handed to `generateText` (replayed) only for it to log them,
// also when the `AI_SDK_LOG_WARNINGS` global makes the SDK log nothing (`false`) or hand them to a
// function. Those two are settled without the SDK; its console output still comes from the SDK.
import type { LanguageModelV3StreamPart, SharedV3Warning } from "@ai-sdk/provider";
import { generateText } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTool, PromptRunner } from "entity-tools";
import { NewestMockModel } from "../support/mock-model.js";

// The SDK's own generateText, counted: how many steps it made (the first step of a run is one).
vi.mock("ai", async (importOriginal) => {
  const original = await importOriginal<typeof import("ai")>();
  return { ...original, generateText: vi.fn(original.generateText) };
});

const echo = defineTool<{ text: string }>({
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }) => text,
});

const warning: SharedV3Warning = { type: "unsupported", feature: "temperature" };
const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 4, text: 4, reasoning: 0 },
};

/** A model that calls `echo`, then answers "done", warning at both steps, generated or streamed. */
function warningModel() {
  let calls = 0;
  const content = () =>
    calls++ === 0
      ? [{ type: "tool-call" as const, toolCallId: "c1", toolName: "echo", input: '{"text":"a"}' }]
      : [{ type: "text" as const, text: "done" }];
  return new NewestMockModel({
    doGenerate: async () => ({
      content: content(),
      finishReason: { unified: "stop", raw: undefined },
      usage,
      warnings: [warning],
    }),
    doStream: async () => {
      const [part] = content();
      const parts: LanguageModelV3StreamPart[] =
        part!.type === "text"
          ? [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: part!.text },
              { type: "text-end", id: "t" },
            ]
          : [part!];
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            controller.enqueue({ type: "stream-start", warnings: [warning] });
            for (const p of parts) controller.enqueue(p);
            controller.enqueue({ type: "finish", finishReason: { unified: "stop", raw: undefined }, usage });
            controller.close();
          },
        }),
      };
    },
  });
}

// Settings no earlier run used, so that a run's first step goes through the SDK (a run takes the options
// an earlier run of the process with the same settings learned).
let fresh = 0;

/** A two-step run (the first through the SDK, the second direct); what the console got. */
async function twoSteps(streamed: boolean) {
  // ai 6 prints with console.warn (and console.info), ai 7 with process.emitWarning.
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const emitted = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
  vi.spyOn(console, "info").mockImplementation(() => {});
  vi.mocked(generateText).mockClear();
  const model = warningModel();
  const runner = new PromptRunner({ model, modelSettings: { headers: { "x-run": `${++fresh}` } } }).withTools(
    echo,
  );
  const run = await (streamed ? runner.stream("go").result : runner.run("go"));
  expect(run.result).toBe("done");
  const warned = [...warn.mock.calls, ...emitted.mock.calls]
    .map(([line]) => String(line))
    .filter((line) => !line.startsWith("AI SDK Warning System")); // the SDK's once-per-process notice
  return { model, warned, throughTheSdk: vi.mocked(generateText).mock.calls.length };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("a direct step's provider warnings", () => {
  for (const streamed of [false, true]) {
    const how = streamed ? "streamed" : "generated";

    it(`are not handed to generateText when AI_SDK_LOG_WARNINGS is false (${how})`, async () => {
      vi.stubGlobal("AI_SDK_LOG_WARNINGS", false);
      const { warned, throughTheSdk } = await twoSteps(streamed);
      expect(warned).toEqual([]);
      expect(throughTheSdk).toBe(streamed ? 0 : 1); // the first step's own (a streamed one is streamText)
    });

    it(`reach an AI_SDK_LOG_WARNINGS function as the SDK hands them, without generateText (${how})`, async () => {
      const logged: unknown[] = [];
      vi.stubGlobal("AI_SDK_LOG_WARNINGS", (options: unknown) => logged.push(options));
      const { model, warned, throughTheSdk } = await twoSteps(streamed);
      const options = { warnings: [warning], provider: model.provider, model: model.modelId };
      expect(logged).toEqual([options, options]); // the first step's from the SDK, the second's from us
      expect(warned).toEqual([]);
      expect(throughTheSdk).toBe(streamed ? 0 : 1);
    });

    it(`are printed by the SDK at every step when AI_SDK_LOG_WARNINGS is not set (${how})`, async () => {
      vi.stubGlobal("AI_SDK_LOG_WARNINGS", undefined);
      const { warned } = await twoSteps(streamed);
      expect(warned).toHaveLength(2);
      for (const line of warned) expect(line).toMatch(/temperature/);
    });
  }
});
