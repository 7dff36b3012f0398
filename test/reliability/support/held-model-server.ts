// An OpenAI Chat Completions stand-in (what `@ai-sdk/openai`'s `.chat()` calls) whose reply can stop half
// way and stay open, for runs cancelled while the model answers. It tells which requests the client
// cancelled (closed before the reply ended): what a user pays for is a request nobody cancelled.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A reply: a text, or a call of a tool. `hold`: the text (streamed) is sent, then the reply stays open (a
 * request that is not streamed gets nothing): the model is still answering.
 */
export type HeldReply =
  { readonly text: string; readonly hold?: boolean } | { readonly call: string; readonly input?: unknown };

export interface HeldModelServer {
  /** For `createOpenAI({ baseURL })`. */
  readonly baseURL: string;
  /** How many requests came. */
  requests(): number;
  /** The requests (numbered from 1) the client closed before their reply ended. */
  readonly cancelled: number[];
  /** Resolves once every request so far has ended or been cancelled: a held one, only when cancelled. */
  settled(): Promise<void>;
  /**
   * Stops the server, once {@link settled}: the connections left are the client's idle ones (undici opens
   * one more after a cancelled request, which would hold `close` for its keep-alive of 4 seconds).
   */
  close(): Promise<void>;
}

/** Serves `reply(n)` for the n-th request (from 1); `reply` may act on the request's arrival. */
export async function startHeldModelServer(reply: (n: number) => HeldReply): Promise<HeldModelServer> {
  let count = 0;
  const cancelled: number[] = [];
  const open: Promise<void>[] = [];
  const server = createServer((req, res) => {
    const n = ++count;
    open.push(
      new Promise<void>((resolve) =>
        res.on("close", () => {
          if (!res.writableFinished) cancelled.push(n);
          resolve();
        }),
      ),
    );
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => answer(res, reply(n), (JSON.parse(body) as { stream?: boolean }).stream === true));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests: () => count,
    cancelled,
    settled: async () => void (await Promise.all(open)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const USAGE = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 };

function answer(res: ServerResponse, reply: HeldReply, streamed: boolean): void {
  const held = "text" in reply && reply.hold === true;
  const calls =
    "call" in reply
      ? [
          {
            id: "call_1",
            type: "function",
            function: { name: reply.call, arguments: JSON.stringify(reply.input ?? {}) },
          },
        ]
      : undefined;
  const finish = calls ? "tool_calls" : "stop";
  if (!streamed) {
    if (held) return; // no answer yet
    const message = { role: "assistant", content: "text" in reply ? reply.text : null, tool_calls: calls };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "c",
        object: "chat.completion",
        created: 0,
        model: "m",
        choices: [{ index: 0, message, finish_reason: finish }],
        usage: USAGE,
      }),
    );
    return;
  }
  const chunk = (delta: object, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.write(chunk({ role: "assistant", content: "" }));
  if ("text" in reply) for (const word of reply.text.split(/(?<= )/)) res.write(chunk({ content: word }));
  else res.write(chunk({ tool_calls: calls!.map((call, index) => ({ index, ...call })) }));
  if (held) return; // the model goes on answering, as far as the client knows
  res.write(chunk({}, finish));
  res.end(
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [], usage: USAGE })}\n\ndata: [DONE]\n\n`,
  );
}
