// A step offers tools with `toolChoice: { type: "auto" }` and a step without tools offers no tool choice,
// whichever way it is made: through `generateText` (a run's first step; ai 7 sends `auto` with no tools)
// or on the provider spec (a later step, or a first step once the settings are known). Checked where the
// provider package receives the call (a middleware around the real `@ai-sdk/openai`) and on the wire:
// `@ai-sdk/openai` leaves the tool choice of a call without tools out of its request, the AI Gateway's
// provider sends the call's options as they are.
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { createGateway, wrapLanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defineTool, PromptRunner } from "entity-tools";
import { startOpenAiResponsesMock, type OpenAiResponsesMock } from "entity-tools/testing";
import { sdkInternals } from "../../src/adapters/sdk-internals.js";
import { startLocalHttpServer } from "../../src/testing/local-http-server.js";

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

  it("is sent to the AI Gateway only with tools: its provider passes a call's options on as they are", async () => {
    const bodies: Record<string, unknown>[] = [];
    const server = await startLocalHttpServer((req, res, body) => {
      bodies.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          content: [{ type: "text", text: "done" }],
          finishReason: { unified: "stop", raw: "stop" },
          usage: {
            inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 1, text: 1, reasoning: 0 },
          },
          warnings: [],
        }),
      );
    });
    try {
      const gateway = createGateway({ baseURL: server.origin, apiKey: "test-key" });
      const modelSettings = { maxRetries: 0, headers: { "x-test": "tool-choice-gateway" } };
      const runner = new PromptRunner({ model: gateway("openai/gpt-test"), modelSettings });
      expect((await runner.run("go")).result).toBe("done"); // through generateText
      expect((await runner.run("go")).result).toBe("done"); // on the provider spec
      expect((await runner.withTools(echo).run("go")).result).toBe("done");
      expect(
        bodies.map((body) => [(body.tools as { name: string }[] | undefined)?.length, body.toolChoice]),
      ).toEqual([
        [undefined, undefined],
        [undefined, undefined],
        [1, { type: "auto" }],
      ]);
    } finally {
      await server.close();
    }
  });
});
