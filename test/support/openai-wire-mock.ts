// A small OpenAI-compatible server on 127.0.0.1: scripted replies in the Chat Completions and Responses
// wire formats, every request recorded. Tests point @ai-sdk/openai at it with createOpenAI({ baseURL }).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./read-body.js";

export type WireReply =
  | { readonly text: string }
  | {
      readonly toolCalls: readonly {
        readonly name: string;
        readonly arguments: string;
        /** Responses API: the tool namespace the called function belongs to. */
        readonly namespace?: string;
      }[];
    }
  | { readonly status: number; readonly error: string };

export interface RecordedRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** The request's headers, names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface WireMock {
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startOpenAiWireMock(replies: readonly WireReply[]): Promise<WireMock> {
  const requests: RecordedRequest[] = [];
  let next = 0;
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    requests.push({ path: req.url ?? "", body, headers: req.headers });
    const reply = replies[next++] ?? { status: 500, error: "wire mock: no reply scripted" };
    if ("status" in reply) {
      res.writeHead(reply.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: reply.error, type: "server_error", code: null } }));
      return;
    }
    const responses = req.url?.endsWith("/responses") === true;
    if (body.stream === true) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const event of responses ? responsesEvents(reply, next) : chatChunks(reply, next)) {
        res.write(
          responses
            ? `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`
            : `data: ${JSON.stringify(event)}\n\n`,
        );
      }
      res.end(responses ? "" : "data: [DONE]\n\n");
      return;
    }
    const payload = responses ? responsesPayload(reply, next) : chatPayload(reply, next);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(payload));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function chatPayload(reply: Exclude<WireReply, { status: number }>, n: number) {
  const toolCalls = "toolCalls" in reply ? reply.toolCalls : [];
  return {
    id: `chatcmpl-${n}`,
    object: "chat.completion",
    created: 0,
    model: "gpt-test",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: "text" in reply ? reply.text : null,
          tool_calls: toolCalls.length
            ? toolCalls.map((c, i) => ({
                id: `call_${n}_${i}`,
                type: "function",
                function: { name: c.name, arguments: c.arguments },
              }))
            : undefined,
        },
        finish_reason: toolCalls.length ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function responsesPayload(reply: Exclude<WireReply, { status: number }>, n: number) {
  const output =
    "text" in reply
      ? [
          {
            type: "message",
            id: `msg_${n}`,
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: reply.text, annotations: [] }],
          },
        ]
      : reply.toolCalls.map((c, i) => ({
          type: "function_call",
          id: `fc_${n}_${i}`,
          call_id: `call_${n}_${i}`,
          name: c.name,
          ...(c.namespace ? { namespace: c.namespace } : {}),
          arguments: c.arguments,
          status: "completed",
        }));
  return {
    id: `resp_${n}`,
    object: "response",
    created_at: 0,
    status: "completed",
    model: "gpt-test",
    output,
    incomplete_details: null,
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 15,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

/** Text in the pieces a streaming server sends it in (word by word). */
const pieces = (text: string) => text.match(/\S+\s*|\s+/g) ?? [];

/** The same reply as Chat Completions stream chunks (`stream: true`). */
function chatChunks(reply: Exclude<WireReply, { status: number }>, n: number): Record<string, unknown>[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: `chatcmpl-${n}`,
    object: "chat.completion.chunk",
    created: 0,
    model: "gpt-test",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const toolCalls = "toolCalls" in reply ? reply.toolCalls : [];
  return [
    chunk({ role: "assistant", content: "" }),
    ...("text" in reply ? pieces(reply.text).map((content) => chunk({ content })) : []),
    ...toolCalls.map((c, index) =>
      chunk({
        tool_calls: [
          {
            index,
            id: `call_${n}_${index}`,
            type: "function",
            function: { name: c.name, arguments: c.arguments },
          },
        ],
      }),
    ),
    chunk({}, toolCalls.length ? "tool_calls" : "stop"),
    { ...chunk({}), choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
  ];
}

/** The same reply as Responses API stream events (`stream: true`). */
function responsesEvents(
  reply: Exclude<WireReply, { status: number }>,
  n: number,
): Record<string, unknown>[] {
  const id = `resp_${n}`;
  const events: Record<string, unknown>[] = [
    { type: "response.created", response: { id, created_at: 0, model: "gpt-test" } },
  ];
  if ("text" in reply) {
    const item = { type: "message", id: `msg_${n}`, role: "assistant", status: "in_progress", content: [] };
    events.push({ type: "response.output_item.added", output_index: 0, item });
    for (const delta of pieces(reply.text))
      events.push({
        type: "response.output_text.delta",
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        delta,
      });
    events.push({
      type: "response.output_item.done",
      output_index: 0,
      item: {
        ...item,
        status: "completed",
        content: [{ type: "output_text", text: reply.text, annotations: [] }],
      },
    });
  } else {
    for (const [index, c] of reply.toolCalls.entries()) {
      const item = {
        type: "function_call",
        id: `fc_${n}_${index}`,
        call_id: `call_${n}_${index}`,
        name: c.name,
        arguments: "",
      };
      events.push({ type: "response.output_item.added", output_index: index, item });
      events.push({
        type: "response.function_call_arguments.delta",
        item_id: item.id,
        output_index: index,
        delta: c.arguments,
      });
      events.push({
        type: "response.output_item.done",
        output_index: index,
        item: { ...item, arguments: c.arguments, status: "completed" },
      });
    }
  }
  events.push({
    type: "response.completed",
    response: { id, usage: { input_tokens: 10, output_tokens: 5 } },
  });
  return events;
}
