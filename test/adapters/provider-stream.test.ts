// Reading a provider's stream for a direct streamed step: what ends a read, and what it leaves behind.
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { gatherStream } from "../../src/adapters/provider-stream.js";

/** A stream of these parts that records whether its reader cancelled it, and with what. */
function source(parts: LanguageModelV3StreamPart[]) {
  const state: { cancelled?: unknown } = {};
  let index = 0;
  const stream = new ReadableStream<LanguageModelV3StreamPart>({
    pull(controller) {
      const part = parts[index++];
      if (part) controller.enqueue(part);
      else controller.close();
    },
    cancel(reason) {
      state.cancelled = reason;
    },
  });
  return { stream, state };
}

const quiet = { onTextDelta: () => {}, onToolCall: () => {} };

describe("gathering a provider's stream", () => {
  it("an error part ends the read with its error, and the rest of the stream is cancelled", async () => {
    const broke = new Error("upstream broke");
    const { stream, state } = source([
      { type: "stream-start", warnings: [] },
      { type: "error", error: broke },
      { type: "text-start", id: "never read" },
    ]);
    await expect(gatherStream(stream, quiet)).rejects.toBe(broke);
    expect(state.cancelled).toBe(broke);
  });

  it("a delta for a part that never started is an error naming the part", async () => {
    const { stream, state } = source([{ type: "text-delta", id: "t9", delta: "x" }]);
    await expect(gatherStream(stream, quiet)).rejects.toThrow("text part t9 not found");
    expect(state.cancelled).toBeInstanceOf(Error);
  });

  it("a stream that ends without a finish part reports unknown usage, not a failure", async () => {
    const { stream } = source([
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "hi" },
    ]);
    const gathered = await gatherStream(stream, quiet);
    expect(gathered.content).toEqual([{ type: "text", text: "hi", providerMetadata: undefined }]);
    expect(gathered.usage.inputTokens.total).toBeUndefined();
  });
});
