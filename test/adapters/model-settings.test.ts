// Every AI SDK setting a user passes through the adapter reaches every step of a run (the first goes
// through generateText, later ones call the provider directly), a `timeout` cuts a hanging step, the SDK's
// own telemetry gives one model span per step, and a setting that cannot apply to every step is refused.
import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  PromptRunner,
  ToolLoopError,
  UnsupportedModelSettingError,
  type AiSdkAdapterSettings,
} from "entity-tools";
import { generateResult } from "entity-tools/testing";
import { call, mockModel, NewestMockModel, text } from "../support/mock-model.js";
import { memoryTracer } from "../support/span-tree.js";

const echo = defineTool<{ text: string }>({
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }) => text,
});

const threeSteps = () => mockModel(call("echo", { text: "a" }), call("echo", { text: "b" }), text("done"));

const settings: AiSdkAdapterSettings = {
  temperature: 0.3,
  topP: 0.9,
  topK: 40,
  presencePenalty: 0.1,
  frequencyPenalty: 0.2,
  seed: 7,
  stopSequences: ["STOP"],
  maxOutputTokens: 321,
  headers: { "x-tenant": "acme" },
  providerOptions: { acme: { region: "eu" } },
};

describe("AI SDK settings on every step", () => {
  it.each([["run", false] as const, ["stream", true] as const])(
    "%s: each step's provider call carries every sampling setting, header and provider option",
    async (_name, streamed) => {
      const model = streamed ? streamingModel() : threeSteps();
      const runner = new PromptRunner({ model, modelSettings: settings }).withTools(echo);
      const run = streamed ? await runner.stream("go").result : await runner.run("go");
      expect(run.result).toBe("done");
      const calls = streamed ? model.doStreamCalls : model.doGenerateCalls;
      expect(calls).toHaveLength(3);
      for (const options of calls) {
        expect(options).toMatchObject({
          temperature: 0.3,
          topP: 0.9,
          topK: 40,
          presencePenalty: 0.1,
          frequencyPenalty: 0.2,
          seed: 7,
          stopSequences: ["STOP"],
          maxOutputTokens: 321,
          providerOptions: { acme: { region: "eu" } },
        });
        expect(options.headers).toMatchObject({ "x-tenant": "acme" });
      }
    },
  );

  it("timeout cuts a provider call that hangs at step 3, and the run fails with the timeout as its cause", async () => {
    let calls = 0;
    const model = new NewestMockModel({
      doGenerate: async () => {
        calls++;
        if (calls === 3) return new Promise<never>(() => {}); // a provider that never answers, signal or not
        return generateResult({ toolCalls: [{ toolName: "echo", input: { text: `${calls}` } }] });
      },
    });
    const started = performance.now();
    const error = await new PromptRunner({ model, modelSettings: { timeout: 300, maxRetries: 0 } })
      .withTools(echo)
      .run("go")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolLoopError);
    expect(String((error as ToolLoopError).cause)).toMatch(/timeout|timed out/i);
    expect((error as ToolLoopError).totalIterations).toBe(3);
    expect(calls).toBe(3);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("with the AI SDK's own experimental_telemetry on, the SDK reports exactly one model call per step", async () => {
    // ai 6 records OpenTelemetry spans through the tracer given; ai 7 reports to telemetry integrations.
    const { tracer, spans } = memoryTracer();
    let integrationCalls = 0;
    const integration = { onLanguageModelCallStart: () => void integrationCalls++ };
    const telemetry = { isEnabled: true, tracer, integrations: [integration] };
    await new PromptRunner({
      model: threeSteps(),
      modelSettings: { experimental_telemetry: telemetry as AiSdkAdapterSettings["experimental_telemetry"] },
    })
      .withTools(echo)
      .run("go");
    const providerSpans = spans().filter((s) => /\.do(Generate|Stream)$/.test(s.name)).length;
    expect([providerSpans, integrationCalls].filter((n) => n > 0)).toEqual([3]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["toolChoice", { toolChoice: "required" }, 'The model setting "toolChoice" is not supported'],
    ["stopWhen", { stopWhen: () => true }, 'The model setting "stopWhen" is not supported'],
    ["onStepFinish", { onStepFinish: () => {} }, 'The model setting "onStepFinish" is not supported'],
    ["timeout.chunkMs", { timeout: { chunkMs: 50 } }, 'The model setting "timeout.chunkMs" is not supported'],
  ])("refuses %s when the runner is made, before any model call", (_name, given, message) => {
    const model = threeSteps();
    const make = () => new PromptRunner({ model, modelSettings: given as AiSdkAdapterSettings });
    expect(make).toThrow(UnsupportedModelSettingError);
    expect(make).toThrow(message);
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});

/** A streaming mock: three turns, as the scripted model streams them. */
function streamingModel() {
  const turns = [
    { toolCalls: [{ toolName: "echo", input: { text: "a" } }] },
    { toolCalls: [{ toolName: "echo", input: { text: "b" } }] },
    { text: "done" },
  ];
  let index = 0;
  return new NewestMockModel({
    doStream: async () => {
      const turn = turns[index++]!;
      const result = generateResult(turn);
      const parts = [
        ...result.content.map((part) =>
          part.type === "text"
            ? [
                { type: "text-start", id: "t" },
                { type: "text-delta", id: "t", delta: part.text },
                { type: "text-end", id: "t" },
              ]
            : [part],
        ),
      ].flat();
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of [
              ...parts,
              { type: "finish", finishReason: result.finishReason, usage: result.usage },
            ])
              controller.enqueue(part);
            controller.close();
          },
        }),
      } as never;
    },
  });
}
