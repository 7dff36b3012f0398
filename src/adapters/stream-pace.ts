import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { LanguageModel } from "ai";
import { wrappedModel } from "./wrapped-model.js";

/** How many provider parts a step through `streamText` may hold that its reader has not taken. */
export const SDK_READ_AHEAD = 16;

/**
 * Holds a provider's stream to the pace of the reader of the SDK's stream of it, in a step through
 * `streamText`. ai 6's `streamText` pipes its provider's stream into its own queue as fast as the provider
 * gives it (`runToolsTransformation` enqueues without asking), whoever reads it: a slow reader of a run
 * had the step's whole answer read off the wire ahead of it. Here the provider's stream gives the SDK a
 * part only while fewer than `limit` it gave are untaken by `read`'s reader, or while that reader waits
 * for one (a part the SDK keeps to itself, a `stream-start` or an empty delta, must not stall it).
 * ai 7's `streamText` reads as it is read: the pace changes nothing there.
 */
export class StreamPace {
  private ahead = 0;
  private reading = false;
  private ended = false;
  private waiting: (() => void)[] = [];

  constructor(private readonly limit: number = SDK_READ_AHEAD) {}

  /** `model` whose streams reach the SDK at this pace (one of a spec before V3 is left alone: `wrappedModel`). */
  model(model: LanguageModel): LanguageModel {
    return wrappedModel(model, {
      wrapStream: async ({ doStream }) => {
        const { stream, ...rest } = await doStream();
        return { ...rest, stream: this.paced(stream) };
      },
    });
  }

  /**
   * The SDK's parts, as the caller takes them. Once the caller stops (the end, a throw, the run's abort)
   * the provider's stream goes on unheld, so that its end or its error reaches the SDK.
   */
  async *read<T>(parts: AsyncIterable<T>): AsyncGenerator<T> {
    const iterator = parts[Symbol.asyncIterator]();
    try {
      for (;;) {
        this.reading = true;
        this.release();
        const next = await iterator.next();
        this.reading = false;
        if (next.done) return;
        this.ahead--;
        yield next.value;
      }
    } finally {
      this.ended = true;
      this.release();
      await iterator.return?.();
    }
  }

  private paced(
    stream: ReadableStream<LanguageModelV3StreamPart>,
  ): ReadableStream<LanguageModelV3StreamPart> {
    const source = stream.getReader();
    return new ReadableStream<LanguageModelV3StreamPart>(
      {
        pull: async (controller) => {
          while (this.ahead >= this.limit && !this.reading && !this.ended)
            await new Promise<void>((resolve) => this.waiting.push(resolve));
          const next = await source.read();
          if (next.done) return controller.close();
          this.ahead++;
          controller.enqueue(next.value);
        },
        cancel: (reason) => source.cancel(reason),
      },
      { highWaterMark: 0 },
    );
  }

  private release(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}
