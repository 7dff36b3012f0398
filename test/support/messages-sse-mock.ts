// A mock of the Anthropic Messages API (POST /v1/messages, streamed SSE) on 127.0.0.1, for the real Claude
// Code binary of the Claude Agent SDK. Each request gets the reply a script computes from its body: tool
// calls or a final text. Every request body is recorded, so tests assert what the model was offered and
// what it read back.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./read-body.js";

export type MessagesReply =
  | { readonly text: string }
  | { readonly toolCalls: readonly { readonly name: string; readonly input: unknown }[] };

export type MessagesBody = {
  readonly model?: string;
  readonly tools?: readonly { readonly name: string; readonly defer_loading?: boolean }[];
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
};

export interface MessagesMock {
  readonly baseURL: string;
  readonly requests: MessagesBody[];
  /** Requests to anything but `POST /v1/messages` (answered 404). */
  readonly others: string[];
  close(): Promise<void>;
}

/** Input tokens the mock reports per response, so usage reporting can be checked. */
export const MOCK_INPUT_TOKENS = 100;
export const MOCK_OUTPUT_TOKENS = 7;

export async function startMessagesMock(reply: (body: MessagesBody) => MessagesReply): Promise<MessagesMock> {
  const requests: MessagesBody[] = [];
  const others: string[] = [];
  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    if (req.method !== "POST" || !/^\/v1\/messages(\?|$)/.test(req.url ?? "")) {
      others.push(`${req.method} ${req.url}`);
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(text) as MessagesBody;
    requests.push(body);
    const n = requests.length;
    const answer = reply(body);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (event: Record<string, unknown>) =>
      res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
    send({
      type: "message_start",
      message: {
        id: `msg_${n}`,
        type: "message",
        role: "assistant",
        model: body.model ?? "claude-mock",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: MOCK_INPUT_TOKENS, output_tokens: 1 },
      },
    });
    const blocks =
      "text" in answer
        ? [{ start: { type: "text", text: "" }, delta: { type: "text_delta", text: answer.text } }]
        : answer.toolCalls.map((c, i) => ({
            start: { type: "tool_use", id: `toolu_${n}_${i}`, name: c.name, input: {} },
            delta: { type: "input_json_delta", partial_json: JSON.stringify(c.input) },
          }));
    blocks.forEach((block, index) => {
      send({ type: "content_block_start", index, content_block: block.start });
      send({ type: "content_block_delta", index, delta: block.delta });
      send({ type: "content_block_stop", index });
    });
    send({
      type: "message_delta",
      delta: { stop_reason: "text" in answer ? "end_turn" : "tool_use", stop_sequence: null },
      usage: { output_tokens: MOCK_OUTPUT_TOKENS },
    });
    send({ type: "message_stop" });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    others,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Block = {
  type?: string;
  name?: string;
  id?: string;
  tool_use_id?: string;
  is_error?: boolean;
  content?: unknown;
  text?: string;
};
const blocks = (content: unknown): Block[] => (Array.isArray(content) ? (content as Block[]) : []);

/** The names of the tools a request offered (deferred ones too). */
export const offeredTools = (body: MessagesBody): string[] => (body.tools ?? []).map((t) => t.name);

/** The tools the model called so far in the conversation a request carries. */
export const calledTools = (body: MessagesBody): string[] =>
  body.messages.flatMap((m) =>
    m.role === "assistant" ? blocks(m.content).flatMap((b) => (b.type === "tool_use" ? [b.name!] : [])) : [],
  );

/** What Claude Code appends to tool results for its model (token budget notes), not part of the result. */
const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** Every tool result the conversation carries: the text the model read and whether it was an error. */
export const toolResults = (body: MessagesBody): { text: string; isError: boolean }[] =>
  body.messages.flatMap((m) =>
    m.role === "user"
      ? blocks(m.content).flatMap((b) =>
          b.type === "tool_result"
            ? [
                {
                  text: (typeof b.content === "string" ? [{ text: b.content }] : blocks(b.content))
                    .map((c) => c.text ?? "")
                    .join("")
                    .replace(SYSTEM_REMINDER, "")
                    .trim(),
                  isError: b.is_error === true,
                },
              ]
            : [],
        )
      : [],
  );

/** All the text of a request's messages, for checks that something was (or was not) said. */
export const conversationText = (body: MessagesBody): string => JSON.stringify(body.messages);
