import type { ServerResponse } from "node:http";
import {
  createUIMessageStream,
  createUIMessageStreamResponse,
  pipeUIMessageStreamToResponse,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { mediaUrlOf, type ToolContentPart } from "../tools/tool-content.js";
import { joinSignals } from "../loop/errors/joined-signal.js";
import { ChunkGate } from "./chunk-gate.js";
import { PartChannel } from "./part-channel.js";
import { whenCancelled } from "./when-cancelled.js";
import type { ToolLoopResult } from "./tool-loop-result.js";

/** One thing a streamed run reports, in the order it happens. */
export type RunStreamPart =
  | { readonly type: "text-delta"; readonly text: string }
  | {
      readonly type: "tool-call";
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: unknown;
    }
  | {
      readonly type: "tool-result";
      readonly toolCallId: string;
      readonly toolName: string;
      /** The text the model reads (an error message when `isError`); media parts are named in it. */
      readonly output: string;
      /** The result's parts when it holds media the model reads (images, audio, files), text included. */
      readonly parts?: readonly ToolContentPart[];
      readonly isError: boolean;
      /** A person denied the call (it did not run; `output` says so, with the reason). */
      readonly denied?: boolean;
    }
  /** The run paused before this call: it waits for a person's decision (`resume` with `approvals`). */
  | {
      readonly type: "tool-approval-request";
      /** The key of the decision in `resume`'s `approvals` (the call's id). */
      readonly approvalId: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: unknown;
    }
  | { readonly type: "tools-injected"; readonly names: readonly string[] }
  | { readonly type: "tools-removed"; readonly names: readonly string[] }
  | {
      readonly type: "step-finish";
      /** The step's number in the run, as events and strategies give it (`ToolLoopIteration.iteration`). */
      readonly iteration: number;
    }
  | { readonly type: "finish"; readonly result: ToolLoopResult<unknown> };

const MASKED_ERROR = "An error occurred.";
/** Why a run whose reader stopped was cancelled (`ToolLoopAbortedError`'s message ends with it). */
const READER_STOPPED = "the reader of stream.parts stopped before the end";
const UI_CANCELLED = "the UI message stream was cancelled";
/** How many UI chunks a reader of a UI message stream may be behind before its parts wait for it. */
const UI_HIGH_WATER = 64;

/**
 * Runs `run` with a streamed run's options, its `signal` joined by its stream's `stopped`: the run is
 * cancelled when its reader stops reading (a `break` or a throw out of `for await` over `parts`), as when
 * the caller aborts; else it would go on, its model requests and tools, for no one.
 */
export async function withStreamStop<O extends { readonly signal?: AbortSignal | undefined }, R>(
  options: O,
  stopped: AbortSignal,
  run: (options: O) => Promise<R>,
): Promise<R> {
  if (!options.signal) return run({ ...options, signal: stopped });
  const joined = joinSignals([options.signal, stopped]);
  try {
    return await run({ ...options, signal: joined.signal });
  } finally {
    joined.release();
  }
}

/**
 * A run in progress, as `runner.stream()` returns it. Read `parts` (or one of the UI message streams,
 * which read them: choose one), and await `result`, the same `ToolLoopResult` `run()` gives. A failed
 * run rejects `result` and ends `parts` by throwing the same `ToolLoopError`.
 */
export class RunStream<T> {
  /**
   * The run's parts as they happen. One reader: a second is refused with `StreamAlreadyReadError`. A
   * reader that stops before the end (a `break` or a throw out of `for await`) cancels the run: `result`
   * rejects with `ToolLoopAbortedError`. A reader 64 parts behind makes the run wait for it (between
   * model parts, before a step, before a tool call). Parts are kept for a reader that has not started, up
   * to 1,000: past that a run nobody reads drops them, and a reader that starts later is refused with
   * `StreamPartsDroppedError` (awaiting `result` alone is fine). No part comes after the run's signal
   * aborted.
   */
  readonly parts: AsyncIterable<RunStreamPart>;
  /** The run's outcome, as `run()` returns it. */
  readonly result: Promise<ToolLoopResult<T>>;
  /** Aborted when the stream's reader stops: the run is cancelled then. */
  private readonly stop = new AbortController();

  /**
   * A stream of the run `start` makes, which hands each part to `emit` as it happens and resolves to the
   * run's result (`runner.stream()` and `resumeStream()` make them). `emit` resolves when the run may go
   * on: at once while nobody reads `parts`, else once the reader is fewer than 64 parts behind (a run
   * waits for a slow reader). The approval requests of a paused run and the `finish` part are added here,
   * after the result. `stopped` fires when the reader of `parts` stops before the end: the run should end
   * then, cancelled (`withStreamStop`). Once `signal` (the run's) aborts, no part is handed out: the
   * reader's next part is the run's end.
   */
  constructor(
    start: (emit: (part: RunStreamPart) => Promise<void>, stopped: AbortSignal) => Promise<ToolLoopResult<T>>,
    signal?: AbortSignal,
  ) {
    const channel = new PartChannel<RunStreamPart>(() => this.stop.abort(new Error(READER_STOPPED)));
    this.parts = channel;
    // Parts the run made before it saw the abort (the SDK may still hand one over) reach no one.
    const cut = () => channel.cut();
    if (signal?.aborted) cut();
    signal?.addEventListener("abort", cut, { once: true });
    const emit = (part: RunStreamPart) => {
      channel.push(part);
      return channel.ready();
    };
    this.result = start(emit, this.stop.signal)
      .finally(() => signal?.removeEventListener("abort", cut))
      .then(
        (result) => {
          for (const { approvalId, toolName, input } of result.pendingApprovals)
            channel.push({
              type: "tool-approval-request",
              approvalId,
              toolCallId: approvalId,
              toolName,
              input,
            });
          channel.push({ type: "finish", result });
          channel.end();
          return result;
        },
        (error: unknown) => {
          channel.fail(error);
          throw error;
        },
      );
    this.result.catch(() => {}); // a reader of `parts` alone hears the failure there
  }

  /**
   * The run in the AI SDK's UI message stream protocol (what `useChat` reads): text, each tool call as a
   * dynamic tool part with its input and output, tool-set changes as `data-tools` parts, and a paused
   * run's calls as tool approval requests (the part's `approval-requested` state; `useChat`'s
   * `addToolApprovalResponse` answers them). A resumed run's stream continues the paused assistant
   * message: decided calls' outputs (or `output-denied`) arrive first. A failed run ends with an `error`
   * chunk whose text `options.onError` gives (masked by default). A reader that cancels the stream (a
   * client that went away) cancels the run: `result` rejects with `ToolLoopAbortedError`.
   *
   * @throws StreamAlreadyReadError when the parts already have a reader.
   */
  toUIMessageStream(options: UIStreamOptions = {}): ReadableStream<UIMessageChunk> {
    const reader = this.parts[Symbol.asyncIterator](); // claimed now: a second reader fails here, not in the stream
    const parts = { [Symbol.asyncIterator]: () => reader };
    const gate = new ChunkGate(UI_HIGH_WATER);
    const ui = createUIMessageStream({
      originalMessages: options.originalMessages as UIMessage[] | undefined,
      execute: async ({ writer }) => {
        const text = { id: 0, open: false };
        const write = (chunk: UIMessageChunk) => {
          writer.write(chunk);
          gate.written();
        };
        write({ type: "start" });
        write({ type: "start-step" });
        for await (const part of parts) {
          if (part.type !== "text-delta" && text.open) {
            write({ type: "text-end", id: `text-${text.id}` });
            text.open = false;
          }
          for (const chunk of uiChunks(part, text)) write(chunk);
          const behind = gate.ready(); // a slow client holds the parts, so the run, back
          if (behind) await behind;
        }
      },
      onError: options.onError ?? (() => MASKED_ERROR),
    });
    // Not the cancel's reason: through the SDK's transform streams, Node 20 can hand its own TypeError.
    return whenCancelled(
      ui,
      () => {
        gate.close();
        this.stop.abort(new Error(UI_CANCELLED)); // first: the run's error names this, not the parts' end
        void reader.return?.();
      },
      () => gate.taken(),
    );
  }

  /**
   * A `Response` streaming {@link toUIMessageStream} (for route handlers: Next.js, Hono, Bun...).
   *
   * @throws StreamAlreadyReadError when the parts already have a reader.
   */
  toUIMessageStreamResponse(init: ResponseInit & UIStreamOptions = {}): Response {
    const { originalMessages, onError, ...responseInit } = init;
    return createUIMessageStreamResponse({
      ...responseInit,
      stream: this.toUIMessageStream({ originalMessages, onError }),
    });
  }

  /**
   * Writes {@link toUIMessageStream} to a Node `ServerResponse`.
   *
   * @throws StreamAlreadyReadError when the parts already have a reader.
   */
  pipeUIMessageStreamToResponse(response: ServerResponse, options: UIStreamOptions = {}): void {
    pipeUIMessageStreamToResponse({ response, stream: this.toUIMessageStream(options) });
  }
}

/** Options of the UI message streams of a {@link RunStream}. */
export interface UIStreamOptions {
  /**
   * The messages the page sent (`useChat`'s request `messages`). When the last one is an assistant
   * message (a paused run the page answered with `addToolApprovalResponse`), the stream continues that
   * message, under its id, instead of starting a new one.
   */
  readonly originalMessages?: readonly UIMessage[] | undefined;
  /**
   * The text the client reads (an `error` chunk) when the run fails. Default: `"An error occurred."`,
   * as in the AI SDK, because a failure's message can hold what must not reach a browser (an upstream
   * error with a key in it). Return `error.message` here to show it.
   */
  readonly onError?: ((error: unknown) => string) | undefined;
}

function uiChunks(part: RunStreamPart, text: { id: number; open: boolean }): UIMessageChunk[] {
  switch (part.type) {
    case "text-delta": {
      const chunks: UIMessageChunk[] = [];
      if (!text.open) {
        text.id++;
        text.open = true;
        chunks.push({ type: "text-start", id: `text-${text.id}` });
      }
      chunks.push({ type: "text-delta", id: `text-${text.id}`, delta: part.text });
      return chunks;
    }
    case "tool-call":
      return [
        {
          type: "tool-input-available",
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
          dynamic: true,
        },
      ];
    case "tool-approval-request":
      return [{ type: "tool-approval-request", approvalId: part.approvalId, toolCallId: part.toolCallId }];
    case "tool-result":
      if (part.denied) return [{ type: "tool-output-denied", toolCallId: part.toolCallId }];
      return [
        part.isError
          ? { type: "tool-output-error", toolCallId: part.toolCallId, errorText: part.output, dynamic: true }
          : {
              type: "tool-output-available",
              toolCallId: part.toolCallId,
              output: part.output,
              dynamic: true,
            },
        // The media the model saw, as file parts of the message (a data URL for bytes), for the UI to show.
        ...(part.parts ?? []).flatMap((p): UIMessageChunk[] =>
          p.type === "text"
            ? []
            : [
                {
                  type: "file",
                  url: mediaUrlOf(p),
                  mediaType: p.mediaType,
                },
              ],
        ),
      ];
    case "tools-injected":
    case "tools-removed":
      return [
        {
          type: "data-tools",
          data: { change: part.type === "tools-injected" ? "added" : "removed", names: part.names },
        },
      ];
    case "step-finish":
      return [{ type: "finish-step" }, { type: "start-step" }];
    case "finish":
      return [{ type: "finish-step" }, { type: "finish" }];
  }
}
