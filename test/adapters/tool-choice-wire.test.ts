// A step offers tools with `toolChoice: { type: "auto" }` and a step without tools offers no tool choice,
// whichever way it is made: through `generateText` (a run's first step; ai 7 sends `auto` with no tools)
// or on the provider spec (a later step, or a first step once the settings are known). Checked where the
// provider package receives the call (a middleware around the real `@ai-sdk/openai`) and on the wire:
// `@ai-sdk/openai` leaves the tool choice of a call without tools out of its request, the AI Gateway's
// provider sends the call's options as they are.
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { createGateway, wrapLanguageModel, type LanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { defineTool, PromptRunner, type RunOptions } from "entity-tools";
import { startOpenAiResponsesMock, type OpenAiResponsesMock } from "entity-tools/testing";
import { sdkInternals } from "../../src/adapters/sdk-internals.js";
import { streamOf } from "../../src/testing/stream-parts.js";
import { startGatewayMock, type GatewayMock } from "../support/gateway-mock.js";

const echo = defineTool<{ text: string }>({
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }) => text,
});

let mock: OpenAiResponsesMock;
// Calls `echo` once when it is offered, else answers.
beforeAll(
  async () =>
    (mock = await startOpenAiResponsesMock((request) =>
      request.offeredTools.includes("echo") && request.calledTools.length === 0
        ? { toolCalls: [{ name: "echo", input: { text: "a" } }] }
        : { text: "done" },
    )),
);
afterAll(() => mock.close());

/** The real provider, with a middleware that keeps what each call hands it (tools by name, tool choice). */
function recordedModel(seen: Pick<LanguageModelV3CallOptions, "tools" | "toolChoice">[]) {
  return wrapLanguageModel({
    model: createOpenAI({ baseURL: mock.baseURL, apiKey: "test-key" }).responses("gpt-test"),
    middleware: {
      specificationVersion: "v3",
      transformParams: async ({ params }) => {
        seen.push({ tools: params.tools, toolChoice: params.toolChoice });
        return params;
      },
    },
  });
}

describe("the tool choice a step sends", () => {
  for (const streamed of [false, true]) {
    it(`is none without tools and auto with them, through generateText and on the provider spec alike${streamed ? ", streamed" : ""}`, async () => {
      const seen: Pick<LanguageModelV3CallOptions, "tools" | "toolChoice">[] = [];
      const model = recordedModel(seen);
      // Settings no other test uses: the first run's first step goes through the SDK, which builds them.
      const modelSettings = { maxRetries: 0, headers: { "x-test": `tool-choice-${streamed}` } };
      const { internals } = await sdkInternals();
      const convert = vi.spyOn(internals!, "convert"); // a step on the provider spec converts its messages
      const runOnce = async (runner: PromptRunner) =>
        (streamed ? runner.stream("go").result : runner.run("go")).then((run) => run.result);
      const first = new PromptRunner({ model, modelSettings });
      const before = mock.requests.length;

      expect(await runOnce(first)).toBe("done"); // through generateText: 0 conversions
      expect(await runOnce(first)).toBe("done"); // on the provider spec: 1
      expect(await runOnce(first.withTools(echo))).toBe("done"); // both steps on the provider spec: 3
      expect(convert).toHaveBeenCalledTimes(3);
      convert.mockRestore();

      const choices = seen.map((call) => [call.tools?.map((t) => t.name), call.toolChoice]);
      expect(choices).toEqual([
        [undefined, undefined],
        [undefined, undefined],
        [["echo"], { type: "auto" }],
        [["echo"], { type: "auto" }],
      ]);
      const wire = mock.requests.slice(before).map(({ body }) => ({
        stream: body.stream === true,
        tools: body.tools?.map((t) => t.name),
        toolChoice: (body as { tool_choice?: unknown }).tool_choice,
      }));
      expect(wire).toEqual([
        { stream: streamed, tools: undefined, toolChoice: undefined },
        { stream: streamed, tools: undefined, toolChoice: undefined },
        { stream: streamed, tools: ["echo"], toolChoice: "auto" },
        { stream: streamed, tools: ["echo"], toolChoice: "auto" },
      ]);
    });
  }
});

// A provider of the spec before V3 (an AI SDK 5 provider package) gets no tool choice without tools
// either: ai 7's `generateText` hands it `auto` as it does any model. No such package is installed, so the
// model records the call options it receives, which such a provider turns into its request.
describe("the tool choice a model of spec V2 is handed", () => {
  for (const streamed of [false, true]) {
    it(`is auto with tools and none without${streamed ? ", streamed" : ""}`, async () => {
      const seen: { tools?: { name: string }[]; toolChoice?: unknown; keys: string[] }[] = [];
      const answer = (options: { tools?: { name: string }[]; prompt: { role: string }[] }) => {
        seen.push({ ...options, keys: Object.keys(options) });
        const call = options.tools !== undefined && !options.prompt.some((m) => m.role === "tool");
        const content: Record<string, unknown>[] = call
          ? [{ type: "tool-call", toolCallId: "c1", toolName: "echo", input: '{"text":"a"}' }]
          : [{ type: "text", text: "done" }];
        const finishReason = call ? "tool-calls" : "stop";
        return { content, finishReason, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } };
      };
      const model = {
        specificationVersion: "v2",
        provider: "older.chat",
        modelId: "older-model",
        supportedUrls: {},
        doGenerate: async (options: Parameters<typeof answer>[0]) => ({ ...answer(options), warnings: [] }),
        // V2's parts are V3's, but for the finish reason and usage, which are passed on as they are.
        doStream: async (options: Parameters<typeof answer>[0]) => ({
          stream: streamOf({ ...answer(options), warnings: [] } as unknown as LanguageModelV3GenerateResult),
        }),
      } as unknown as LanguageModel;
      const runner = new PromptRunner({ model });
      const go = (r: PromptRunner) => (streamed ? r.stream("go").result : r.run("go"));
      vi.stubGlobal("AI_SDK_LOG_WARNINGS", false); // ai 6 warns of its V2 compatibility mode at each call
      onTestFinished(() => void vi.unstubAllGlobals());
      expect((await go(runner)).result).toBe("done");
      const removing = runner.withTools(echo).withInjectionStrategy({
        evaluateToolResult: () => ({ remove: ["echo"] }),
      });
      expect((await go(removing)).result).toBe("done");
      expect(seen.map((call) => [call.tools?.map((t) => t.name), call.toolChoice])).toEqual([
        [undefined, undefined],
        [["echo"], { type: "auto" }],
        [undefined, undefined],
      ]);
      // In the key order of a V3 model's step (see `callOptions`), on both lanes.
      expect(seen.map((call) => call.keys.slice(0, 4))).toEqual(
        seen.map(() => ["prompt", "tools", "toolChoice", "abortSignal"]),
      );
    });
  }
});

// Through the AI Gateway's provider, which sends a call's options as they are: every kind of step (a
// first and a later one, a step whose tools were all removed, a resumed run, a continued conversation),
// generated and streamed, for a model object and for a model given by id (a string), which the SDK
// resolves through the process's default provider, else the AI Gateway. A model id was passed to the SDK
// at every step: on ai 7 every step without tools sent `toolChoice: auto`, and on both lanes the options'
// keys came in another order. It is now resolved at each step and stepped as its model object.
describe("the tool choice the AI Gateway is sent", () => {
  let gateway: GatewayMock;
  const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: unknown };
  const saved = global.AI_SDK_DEFAULT_PROVIDER;
  beforeAll(
    async () =>
      (gateway = await startGatewayMock((request) =>
        request.options.tools?.some((t) => t.name === "echo") && !request.calledTools.includes("echo")
          ? { toolCalls: [{ name: "echo", input: { text: "a" } }] }
          : { text: "done" },
      )),
  );
  afterAll(async () => {
    global.AI_SDK_DEFAULT_PROVIDER = saved;
    await gateway.close();
  });

  const removal = { evaluateToolResult: () => ({ remove: ["echo"] }) };

  /** Every kind of step, in order; what the gateway was sent for each, without the test's own header. */
  async function sentFor(model: LanguageModel, streamed: boolean, label: string) {
    global.AI_SDK_DEFAULT_PROVIDER = saved;
    // Settings of their own: the first run's first step goes through the SDK, the next runs' directly.
    const runner = new PromptRunner({
      model,
      modelSettings: { maxRetries: 0, headers: { "x-test": label } },
    });
    const go = (r: PromptRunner, prompt: string, options?: RunOptions<string>) =>
      streamed ? r.stream(prompt, options).result : r.run(prompt, options);
    // Set after the runner is made: an id is resolved at each step, as the SDK resolves it.
    global.AI_SDK_DEFAULT_PROVIDER = createGateway({ baseURL: gateway.baseURL, apiKey: "test-key" });
    const before = gateway.requests.length;
    await go(runner, "go"); // through generateText
    await go(runner, "go"); // on the provider spec
    const removing = runner.withTools(echo).withInjectionStrategy(removal);
    await go(removing, "go"); // its second step has no tools left (both steps on the provider spec)
    const asking = removing.withApproval(() => true);
    const paused = await go(asking, "go");
    expect(paused.status).toBe("awaiting-approval");
    const approvals = { [paused.pendingApprovals[0]!.approvalId]: { approved: true } };
    const resumed = streamed
      ? asking.resumeStream(paused.snapshot, { approvals }).result
      : asking.resume(paused.snapshot, { approvals });
    // echo ran and was removed: the resumed step goes through generateText, without tools.
    expect((await resumed).result).toBe("done");
    const first = await go(runner, "go");
    // The next turn's step goes through generateText (its prompt is more than user text).
    expect((await go(runner, "again", { continueFrom: first.snapshot })).result).toBe("done");
    // While the SDK's telemetry watches, every step goes through generateText.
    const watched = new PromptRunner({
      model,
      modelSettings: {
        maxRetries: 0,
        headers: { "x-test": label },
        experimental_telemetry: { isEnabled: true },
      },
    });
    await go(watched.withTools(echo).withInjectionStrategy(removal), "go");
    return gateway.requests.slice(before).map(({ body, modelId, options }) => {
      const { headers, ...rest } = options;
      const { "x-test": _label, ...own } = headers as Record<string, string>;
      return { stream: body.stream, modelId, ...rest, headers: own };
    });
  }

  for (const streamed of [false, true]) {
    it(`is auto with tools and none without, for a model object and a model id alike${streamed ? ", streamed" : ""}`, async () => {
      const byObject = await sentFor(
        createGateway({ baseURL: gateway.baseURL, apiKey: "test-key" })("openai/gpt-test"),
        streamed,
        `gateway-object-${streamed}`,
      );
      const byId = await sentFor("openai/gpt-test", streamed, `gateway-id-${streamed}`);

      const auto = { type: "auto" };
      expect(byId.map((sent) => [sent.tools?.map((t) => t.name), sent.toolChoice])).toEqual([
        [undefined, undefined],
        [undefined, undefined],
        [["echo"], auto], // removal
        [undefined, undefined],
        [["echo"], auto], // paused for approval
        [undefined, undefined], // resumed
        [undefined, undefined], // continued
        [undefined, undefined],
        [["echo"], auto], // watched by telemetry
        [undefined, undefined],
      ]);
      expect(byId.every((sent) => sent.stream === streamed && sent.modelId === "openai/gpt-test")).toBe(true);
      // As text: the same keys in the same order, tool definitions included.
      expect(JSON.stringify(byId)).toBe(JSON.stringify(byObject));
    });
  }
});
