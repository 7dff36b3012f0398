// A run's later steps call the provider spec directly. What the provider receives, and what the loop gets
// back, must be what a `generateText` call on the same history gives: each case runs a step on a run's
// own history (the direct path) and the same step on a copy of it (a fresh history: through the SDK).
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  SharedV3Warning,
} from "@ai-sdk/provider";
import { APICallError, RetryError, type ModelMessage } from "ai";
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AiSdkAdapter,
  defineTool,
  type AiSdkAdapterSettings,
  type ModelStepResult,
  type ModelStreamPart,
} from "entity-tools";
import { ScriptedLanguageModel } from "entity-tools/testing";
import { sdkInternals } from "../../src/adapters/sdk-internals.js";
import { markRunHistory } from "../../src/loop/run/run-history.js";
import { NewestMockModel } from "../support/mock-model.js";

const echo = defineTool<{ text: string }>({
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }) => text,
});
const tools = [echo];
const system = "Be brief.";

// The V4 spec (ai 7) tags a file's data with its kind.
const pngData =
  (new NewestMockModel().specificationVersion as string) === "v4"
    ? { type: "data", data: "iVBORw0KGgo=" }
    : "iVBORw0KGgo=";

type Reply = LanguageModelV3Content[] | Error;

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 4, text: 4, reasoning: 0 },
};

/** A mock provider answering with these replies in turn (an error is thrown), keeping every call. */
function provider(...replies: Reply[]) {
  let index = 0;
  return new NewestMockModel({
    doGenerate: async () => {
      const reply = replies[index++];
      if (!reply) throw new Error(`no reply ${index}`);
      if (reply instanceof Error) throw reply;
      return { content: reply, finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
    },
  });
}

const toolCall = (id: string, toolName: string, input: string): LanguageModelV3Content => ({
  type: "tool-call",
  toolCallId: id,
  toolName,
  input,
});
const resultsFor = (step: ModelStepResult): ModelMessage[] =>
  step.toolCalls.length === 0
    ? [{ role: "user", content: "go on" }]
    : [
        {
          role: "tool",
          content: step.toolCalls.map((c) => ({
            type: "tool-result" as const,
            toolCallId: c.toolCallId,
            toolName: c.toolName,
            output: { type: "text" as const, value: "ok" },
          })),
        },
      ];

/** What the provider received at call `index`, without the signal (a fresh one per call). */
const sent = (model: { doGenerateCalls: LanguageModelV3CallOptions[] }, index: number) =>
  omitSignal(model.doGenerateCalls[index]!);

const omitSignal = ({ abortSignal: _signal, ...options }: LanguageModelV3CallOptions) => options;

/** The step over `history` as a fresh `generateText` call gives it: a new adapter, a copy of the history. */
async function throughTheSdk(replies: Reply[], history: ModelMessage[], settings?: AiSdkAdapterSettings) {
  const model = provider(...replies);
  const step = await new AiSdkAdapter(model, settings).step({ system, messages: [...history], tools });
  return { step, sent: sent(model, 0) };
}

afterEach(() => vi.restoreAllMocks());

describe("a run's later steps, on the provider spec", () => {
  it("convert only the messages added since the last step, through the SDK's own conversion", async () => {
    const { internals, problem } = await sdkInternals();
    expect(problem, "the installed ai no longer does what the direct step uses").toBeUndefined();
    const convert = vi.spyOn(internals!, "convert");
    const model = provider([toolCall("c1", "echo", '{"text":"a"}')], [{ type: "text", text: "done" }]);
    const adapter = new AiSdkAdapter(model);
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    const first = await adapter.step({ system, messages: history, tools });
    history.push(...first.responseMessages, ...resultsFor(first));
    await adapter.step({ system, messages: history, tools });
    expect(convert).toHaveBeenCalledTimes(1);
    expect(convert.mock.calls[0]![0]).toEqual(history.slice(1));
    expect(sent(model, 1).prompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
  });

  it.each<[string, LanguageModelV3Content[]]>([
    ["a text answer", [{ type: "text", text: "done" }]],
    [
      "reasoning and text with provider metadata",
      [
        { type: "reasoning", text: "thinking", providerMetadata: { openai: { itemId: "r1" } } },
        { type: "text", text: "", providerMetadata: undefined },
        { type: "text", text: "done", providerMetadata: { openai: { itemId: "m1" } } },
      ],
    ],
    [
      "tool calls: valid, empty, malformed, to an unknown tool, with prototype keys, nested too deep",
      [
        toolCall("t1", "echo", '{"text":"b"}'),
        toolCall("t2", "echo", ""),
        toolCall("t3", "echo", '{"text":'),
        toolCall("t4", "nope", '{"x":1}'),
        toolCall("t5", "echo", '{"__proto__":{"polluted":true},"text":"c"}'),
        toolCall("t6", "echo", '{"constructor":{"prototype":{"x":1}}}'),
        toolCall("t7", "nope", "not json"),
        toolCall("t8", "echo", `{"a":${"[".repeat(100)}${"]".repeat(100)}}`),
      ],
    ],
    [
      "an empty text with provider metadata",
      [{ type: "text", text: "", providerMetadata: { p: { id: "x" } } }],
    ],
    [
      "a source and a text",
      [
        { type: "source", sourceType: "url", id: "s1", url: "https://example.com" },
        { type: "text", text: "see" },
      ],
    ],
    [
      "a tool the provider ran, and its result (read by the SDK)",
      [
        {
          type: "tool-call",
          toolCallId: "p1",
          toolName: "web_search",
          input: "{}",
          providerExecuted: true,
          dynamic: true,
        },
        { type: "tool-result", toolCallId: "p1", toolName: "web_search", result: { hits: 1 }, dynamic: true },
        { type: "text", text: "found" },
      ],
    ],
    [
      "a tool the provider will run, its arguments malformed (read by the SDK)",
      [
        {
          type: "tool-call",
          toolCallId: "p2",
          toolName: "web_search",
          input: "{not json",
          providerExecuted: true,
          dynamic: true,
        },
      ],
    ],
    [
      "a generated file (read by the SDK)",
      [{ type: "file", mediaType: "image/png", data: pngData } as LanguageModelV3Content],
    ],
  ])("%s: the same prompt, result and next prompt as through generateText", async (_case, reply) => {
    const opening = [toolCall("c1", "echo", '{"text":"a"}')];
    const closing: LanguageModelV3Content[] = [{ type: "text", text: "end" }];
    const model = provider(opening, reply, closing);
    const adapter = new AiSdkAdapter(model, { temperature: 0.5, maxOutputTokens: 99 });
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    const first = await adapter.step({ system, messages: history, tools });
    history.push(...first.responseMessages, ...resultsFor(first));

    const second = await adapter.step({ system, messages: history, tools });
    const expected = await throughTheSdk([reply], history, { temperature: 0.5, maxOutputTokens: 99 });
    expect(sent(model, 1)).toEqual(expected.sent);
    // inspect shows keys set to undefined and their order, and tells own `constructor` keys apart fine
    expect(inspect(second, { depth: null })).toBe(inspect(expected.step, { depth: null }));

    history.push(...second.responseMessages, ...resultsFor(second));
    await adapter.step({ system, messages: history, tools });
    expect(sent(model, 2)).toEqual(
      (await throughTheSdk([closing], history, { temperature: 0.5, maxOutputTokens: 99 })).sent,
    );
  });

  it("a tool result naming a provider's file is converted for that provider", async () => {
    const model = provider([toolCall("c1", "echo", "{}")], [{ type: "text", text: "two" }]);
    const adapter = new AiSdkAdapter(model);
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    const first = await adapter.step({ system, messages: history, tools });
    history.push(...first.responseMessages, {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "echo",
          output: { type: "content", value: [{ type: "file-id", fileId: "file-1" }] },
        },
      ],
    });
    await adapter.step({ system, messages: history, tools });
    expect(sent(model, 1)).toEqual((await throughTheSdk([[{ type: "text", text: "two" }]], history)).sent);
  });

  it("a history changed between steps is converted again, whole", async () => {
    const model = provider([{ type: "text", text: "one" }], [{ type: "text", text: "two" }]);
    const adapter = new AiSdkAdapter(model);
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    const first = await adapter.step({ system, messages: history, tools });
    history.push(...first.responseMessages, { role: "user", content: "more" });
    history[0] = { role: "user", content: "go, edited" };
    await adapter.step({ system, messages: history, tools });
    expect(sent(model, 1)).toEqual((await throughTheSdk([[{ type: "text", text: "two" }]], history)).sent);
  });

  it("a message replaced in the middle of a caller's history is found, and the history converted whole", async () => {
    const model = provider(
      [{ type: "text", text: "one" }],
      [{ type: "text", text: "two" }],
      [{ type: "text", text: "three" }],
    );
    const adapter = new AiSdkAdapter(model);
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    const first = await adapter.step({ system, messages: history, tools });
    history.push(...first.responseMessages, { role: "user", content: "more" });
    const second = await adapter.step({ system, messages: history, tools });
    history.push(...second.responseMessages, { role: "user", content: "again" });
    history[1] = { role: "assistant", content: "one, edited" };
    await adapter.step({ system, messages: history, tools });
    expect(sent(model, 2)).toEqual((await throughTheSdk([[{ type: "text", text: "three" }]], history)).sent);
  });

  it("a run's own history, only appended to, is checked by its length and last message", async () => {
    const model = provider(
      [{ type: "text", text: "one" }],
      [{ type: "text", text: "two" }],
      [{ type: "text", text: "three" }],
    );
    const adapter = new AiSdkAdapter(model);
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    markRunHistory(history);
    const first = await adapter.step({ system, messages: history, tools });
    history.push(...first.responseMessages, { role: "user", content: "more" });
    await adapter.step({ system, messages: history, tools });
    expect(sent(model, 1)).toEqual((await throughTheSdk([[{ type: "text", text: "two" }]], history)).sent);
    // its last message replaced (not a run's own edit, but cheap to catch): converted whole
    history[history.length - 1] = { role: "user", content: "more, edited" };
    history.push({ role: "user", content: "again" });
    await adapter.step({ system, messages: history, tools });
    expect(sent(model, 2)).toEqual((await throughTheSdk([[{ type: "text", text: "three" }]], history)).sent);
  });

  it("a tool message that follows a tool message is merged into it, as the SDK merges them", async () => {
    const model = provider([{ type: "text", text: "one" }], [{ type: "text", text: "two" }]);
    const adapter = new AiSdkAdapter(model);
    const answered = (value: string): ModelMessage => ({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "c0", toolName: "echo", output: { type: "text", value } }],
    });
    const history: ModelMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c0", toolName: "echo", input: {} }] },
      answered("first"),
    ];
    await adapter.step({ system, messages: history, tools });
    history.push(answered("second"));
    await adapter.step({ system, messages: history, tools });
    const prompt = sent(model, 1).prompt;
    expect(prompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(prompt).toEqual((await throughTheSdk([[{ type: "text", text: "two" }]], history)).sent.prompt);
  });

  it("a provider that marks its prompt in place does not find the mark again at the next step", async () => {
    const marked = provider(
      [toolCall("c1", "echo", '{"text":"a"}')],
      [toolCall("c2", "echo", '{"text":"b"}')],
      [{ type: "text", text: "end" }],
    );
    const doGenerate = marked.doGenerate.bind(marked);
    marked.doGenerate = async (options) => {
      const last = options.prompt.at(-1)!;
      last.providerOptions = { cache: { mark: true } };
      if (typeof last.content !== "string")
        for (const part of last.content) part.providerOptions = { cache: { mark: true } };
      return doGenerate(options);
    };
    const adapter = new AiSdkAdapter(marked);
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    for (let i = 0; i < 3; i++) {
      const step = await adapter.step({ system, messages: history, tools });
      history.push(...step.responseMessages, ...resultsFor(step));
    }
    const last = marked.doGenerateCalls[2]!.prompt;
    expect(JSON.stringify(last.slice(0, -1))).not.toContain("mark");
  });

  it("retries as the SDK does: a retryable error again, up to maxRetries, then RetryError", async () => {
    const limited = () =>
      new APICallError({
        message: "rate limited",
        url: "http://localhost/v1",
        requestBodyValues: {},
        statusCode: 429,
        responseHeaders: { "retry-after-ms": "0" },
        isRetryable: true,
      });
    const opening = [toolCall("c1", "echo", '{"text":"a"}')];
    const run = async (settings: AiSdkAdapterSettings, ...replies: Reply[]) => {
      const model = provider(opening, ...replies);
      const adapter = new AiSdkAdapter(model, settings);
      const history: ModelMessage[] = [{ role: "user", content: "go" }];
      const first = await adapter.step({ system, messages: history, tools });
      history.push(...first.responseMessages, ...resultsFor(first));
      const outcome = await adapter.step({ system, messages: history, tools }).catch((e: unknown) => e);
      return { outcome, calls: model.doGenerateCalls.length };
    };
    const recovered = await run({}, limited(), [{ type: "text", text: "done" }]);
    expect((recovered.outcome as ModelStepResult).text).toBe("done");
    expect(recovered.calls).toBe(3);

    const unretried = await run({ maxRetries: 0 }, limited());
    expect(APICallError.isInstance(unretried.outcome) && unretried.outcome.statusCode).toBe(429);

    const exhausted = await run({ maxRetries: 1 }, limited(), limited());
    expect(RetryError.isInstance(exhausted.outcome) && exhausted.outcome.message).toMatch(
      /^Failed after 2 attempts\. Last error: .*rate limited$/,
    );
    expect(exhausted.calls).toBe(3);
  });

  it("a step's warnings are logged as the SDK logs them, where the installed ai exports its logger", async () => {
    const logged: unknown[] = [];
    vi.stubGlobal("AI_SDK_LOG_WARNINGS", (options: { warnings: unknown[] }) =>
      logged.push(...options.warnings),
    );
    const warning: SharedV3Warning = { type: "unsupported", feature: "temperature" };
    let calls = 0;
    const model = new NewestMockModel({
      doGenerate: async () => ({
        content: calls++ === 0 ? [toolCall("c1", "echo", "{}")] : [{ type: "text", text: "done" }],
        finishReason: { unified: "stop", raw: undefined },
        usage,
        warnings: [warning],
      }),
    });
    const adapter = new AiSdkAdapter(model);
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    const first = await adapter.step({ system, messages: history, tools });
    history.push(...first.responseMessages, ...resultsFor(first));
    await adapter.step({ system, messages: history, tools });
    // ai 6 does not export its logger: a function set as AI_SDK_LOG_WARNINGS is called as ai 6 calls it
    // (see direct-step-warnings.test.ts).
    expect(logged).toEqual([warning, warning]);
  });

  it("a provider that leaves out a step's warnings is read as the SDK reads it", async () => {
    const model = new NewestMockModel({
      doGenerate: async () =>
        ({
          content: [{ type: "text", text: "done" }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
        }) as unknown as LanguageModelV3GenerateResult,
    });
    const adapter = new AiSdkAdapter(model);
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    const first = await adapter.step({ system, messages: history, tools });
    history.push(...first.responseMessages, ...resultsFor(first));
    expect((await adapter.step({ system, messages: history, tools })).text).toBe("done");
  });
});

type StreamReply = LanguageModelV3StreamPart[];

/** A mock provider streaming these parts in turn, keeping every call. */
function streamingProvider(...replies: StreamReply[]) {
  let index = 0;
  return new NewestMockModel({
    doStream: async () => {
      const parts = replies[index++];
      if (!parts) throw new Error(`no reply ${index}`);
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}

const started: LanguageModelV3StreamPart = { type: "stream-start", warnings: [] };
const finished: LanguageModelV3StreamPart = {
  type: "finish",
  finishReason: { unified: "stop", raw: undefined },
  usage,
};
const streamedText = (id: string, ...deltas: string[]): LanguageModelV3StreamPart[] => [
  { type: "text-start", id },
  ...deltas.map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id, delta })),
  { type: "text-end", id },
];
const streamedCall = (id: string, toolName: string, input: string): LanguageModelV3StreamPart[] => [
  { type: "tool-input-start", id, toolName },
  { type: "tool-input-delta", id, delta: input },
  { type: "tool-input-end", id },
  { type: "tool-call", toolCallId: id, toolName, input },
];

/** A streamed step over `history` as a fresh `streamText` call gives it: what was heard, returned, sent. */
async function streamedThroughTheSdk(reply: StreamReply, history: ModelMessage[]) {
  const model = streamingProvider(reply);
  const heard: ModelStreamPart[] = [];
  const step = await new AiSdkAdapter(model)
    .stream({ system, messages: [...history], tools }, (p) => void heard.push(p))
    .catch((e: unknown) => e);
  return { step, heard, sent: model.doStreamCalls[0] && omitSignal(model.doStreamCalls[0]) };
}

describe("a streamed run's later steps, on the provider spec", () => {
  it.each<[string, StreamReply]>([
    ["text in deltas, one empty", [started, ...streamedText("t", "Hel", "", "lo"), finished]],
    [
      "reasoning, then text, with provider metadata on their parts",
      [
        started,
        { type: "reasoning-start", id: "r", providerMetadata: { openai: { itemId: "r1" } } },
        { type: "reasoning-delta", id: "r", delta: "hmm" },
        { type: "reasoning-end", id: "r", providerMetadata: { openai: { itemId: "r1", done: true } } },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "", providerMetadata: { p: { mark: 1 } } },
        { type: "text-delta", id: "t", delta: "done" },
        { type: "text-end", id: "t", providerMetadata: { openai: { itemId: "m1" } } },
        finished,
      ],
    ],
    [
      "tool calls: valid, malformed, to an unknown tool, nested too deep",
      [
        started,
        ...streamedText("t", "Let me look."),
        ...streamedCall("s1", "echo", '{"text":"b"}'),
        ...streamedCall("s2", "echo", '{"text":'),
        ...streamedCall("s3", "nope", "{}"),
        ...streamedCall("s4", "echo", `{"a":${"[".repeat(100)}${"]".repeat(100)}}`),
        { type: "response-metadata", id: "resp-1", modelId: "m" },
        finished,
      ],
    ],
    [
      "a generated file (read by the SDK)",
      [
        started,
        { type: "file", mediaType: "image/png", data: pngData } as LanguageModelV3StreamPart,
        finished,
      ],
    ],
    [
      "an error part",
      [started, ...streamedText("t", "partial"), { type: "error", error: new Error("stream broke") }],
    ],
  ])("%s: heard, returned and sent as through streamText", async (_case, reply) => {
    const opening: StreamReply = [started, ...streamedCall("c1", "echo", '{"text":"a"}'), finished];
    const closing: StreamReply = [started, ...streamedText("e", "end"), finished];
    const model = streamingProvider(opening, reply, closing);
    const adapter = new AiSdkAdapter(model);
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    const first = await adapter.stream({ system, messages: history, tools }, () => {});
    history.push(...first.responseMessages, ...resultsFor(first));

    const heard: ModelStreamPart[] = [];
    const second = await adapter
      .stream({ system, messages: history, tools }, (p) => void heard.push(p))
      .catch((e: unknown) => e);
    const expected = await streamedThroughTheSdk(reply, history);
    expect(omitSignal(model.doStreamCalls[1]!)).toEqual(expected.sent);
    expect(inspect(heard, { depth: null })).toBe(inspect(expected.heard, { depth: null }));
    if (second instanceof Error) {
      expect(second.message).toBe((expected.step as Error).message);
      return;
    }
    expect(inspect(second, { depth: null })).toBe(inspect(expected.step, { depth: null }));

    history.push(...(second as ModelStepResult).responseMessages, ...resultsFor(second as ModelStepResult));
    await adapter.stream({ system, messages: history, tools }, () => {});
    expect(omitSignal(model.doStreamCalls[2]!)).toEqual((await streamedThroughTheSdk(closing, history)).sent);
  });

  it("a streamed direct step parses each tool call's arguments once", async () => {
    const input = '{"text":"parsed once"}';
    const opening: StreamReply = [started, ...streamedCall("c1", "echo", '{"text":"a"}'), finished];
    const model = streamingProvider(opening, [started, ...streamedCall("c2", "echo", input), finished]);
    const adapter = new AiSdkAdapter(model);
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    const first = await adapter.stream({ system, messages: history, tools }, () => {});
    history.push(...first.responseMessages, ...resultsFor(first));
    const parse = vi.spyOn(JSON, "parse");
    const heard: ModelStreamPart[] = [];
    const second = await adapter.stream({ system, messages: history, tools }, (p) => void heard.push(p));
    const parses = parse.mock.calls.filter(([text]) => text === input).length;
    parse.mockRestore();
    expect(parses).toBe(1);
    const call = { toolCallId: "c2", toolName: "echo", input: { text: "parsed once" } };
    expect(heard).toEqual([{ type: "tool-call", call }]);
    expect(second.toolCalls).toEqual([call]);
  });

  it("a streamed run's later steps do not go through streamText", async () => {
    const { internals } = await sdkInternals();
    const convert = vi.spyOn(internals!, "convert");
    const model = new ScriptedLanguageModel().callTool("echo", { text: "a" }).respondWithText("done");
    const adapter = new AiSdkAdapter(model);
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    const first = await adapter.stream({ system, messages: history, tools }, () => {});
    history.push(...first.responseMessages, ...resultsFor(first));
    convert.mockClear(); // the first step may be direct too (options learned by an earlier run)
    const heard: ModelStreamPart[] = [];
    const second = await adapter.stream({ system, messages: history, tools }, (p) => void heard.push(p));
    expect(convert).toHaveBeenCalledTimes(1);
    expect(second.text).toBe("done");
    expect(heard).toEqual([{ type: "text-delta", text: "done" }]);
  });
});
