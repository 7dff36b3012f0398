// How far a streamed run reads its provider ahead of a slow reader (X21), over the real `@ai-sdk/openai`
// against the Responses API mock. The provider's HTTP body is handed to it one event per pull, as TCP's
// flow control would (without the socket's own buffer): `handed` counts the text deltas the provider got
// off the wire, `read` those the run's reader took.
import { createOpenAI } from "@ai-sdk/openai";
import { afterEach, describe, expect, it } from "vitest";
import { PromptRunner, type RunStream } from "entity-tools";
import { startOpenAiResponsesMock, type OpenAiResponsesMock } from "entity-tools/testing";
import { inOrder } from "../support/openai-mocks.js";
import { NewestMockModel } from "../support/mock-model.js";

const HIGH_WATER = 64; // parts a reader may be behind (docs/conversations.md)
const WORDS = 2_000;

let mock: OpenAiResponsesMock | undefined;
afterEach(async () => mock?.close());

/** A `fetch` whose response body reaches the provider one server-sent event per pull, each counted. */
function eventByEvent(counted: { handed: number }): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const source = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    if (!source) return response;
    const encoder = new TextEncoder();
    let buffered = "";
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          for (let end = buffered.indexOf("\n\n"); end < 0; end = buffered.indexOf("\n\n")) {
            const next = await source.read();
            if (next.done) {
              if (buffered) controller.enqueue(encoder.encode(buffered));
              buffered = "";
              return controller.close();
            }
            buffered += next.value;
          }
          const end = buffered.indexOf("\n\n") + 2;
          const event = buffered.slice(0, end);
          buffered = buffered.slice(end);
          if (event.startsWith("event: response.output_text.delta")) counted.handed++;
          controller.enqueue(encoder.encode(event));
        },
        cancel: (reason) => source.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

/** Reads `stream` one part per turn of the event loop; how far the provider got ahead of it at most. */
async function readSlowly(stream: RunStream<string>, counted: { handed: number }) {
  const before = counted.handed;
  let read = 0;
  let maxAhead = 0;
  for await (const part of stream.parts) {
    if (part.type !== "text-delta") continue;
    read++;
    maxAhead = Math.max(maxAhead, counted.handed - before - read);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { result: (await stream.result).result, read, handed: counted.handed - before, maxAhead };
}

describe("a slow reader of a streamed run over @ai-sdk/openai", () => {
  it("X21 the provider's body is read at most a bounded number of deltas ahead of the reader, in a step through streamText and in one on the provider spec", async () => {
    const words = "word ".repeat(WORDS);
    mock = await startOpenAiResponsesMock(inOrder([{ text: words }, { text: words }]));
    const counted = { handed: 0 };
    const provider = createOpenAI({ baseURL: mock.baseURL, apiKey: "test", fetch: eventByEvent(counted) });
    const runner = new PromptRunner({ model: provider.responses("gpt-test") });
    // The runner's first run steps through `streamText`; the second, with the options it learned, on the
    // provider spec (`doStream`) directly.
    for (const path of ["streamText", "doStream"]) {
      const slow = await readSlowly(runner.stream("Talk"), counted);
      const { maxAhead, ...whole } = slow;
      expect(whole, path).toEqual({ result: words, read: WORDS, handed: WORDS });
      // The run's 64 parts, the 16 a step through `streamText` may hold, the SDK's and the provider's few
      // (before: on ai 6 `streamText` read the provider's whole answer ahead of the reader, 1,996 deltas).
      expect(maxAhead, path).toBeLessThanOrEqual(HIGH_WATER + 32);
    }
  });

  it("a step through streamText whose provider sends many parts the SDK keeps to itself (empty deltas) before its text completes: the pace lets them through while the reader waits", async () => {
    const parts = [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      ...Array.from({ length: 200 }, () => ({ type: "text-delta", id: "t", delta: "" })),
      { type: "text-delta", id: "t", delta: "Hello" },
      { type: "text-end", id: "t" },
      {
        type: "finish",
        finishReason: { unified: "stop", raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
      },
    ];
    const model = new NewestMockModel({
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part as never);
            controller.close();
          },
        }),
      }),
    });
    // Settings no other run here has: its first step goes through `streamText` (nothing learned yet).
    const stream = new PromptRunner({ model, modelSettings: { seed: 21 } }).stream("Hi");
    const texts: string[] = [];
    for await (const part of stream.parts) if (part.type === "text-delta") texts.push(part.text);
    expect(texts).toEqual(["Hello"]);
    expect((await stream.result).result).toBe("Hello");
  }, 10_000);
});
