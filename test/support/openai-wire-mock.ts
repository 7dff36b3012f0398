// A small OpenAI-compatible server on 127.0.0.1: scripted replies in the Chat Completions and Responses
// wire formats, every request recorded. Tests point @ai-sdk/openai at it with createOpenAI({ baseURL }).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./read-body.js";

export type WireReply =
  | { readonly text: string }
  | { readonly toolCalls: readonly { readonly name: string; readonly arguments: string }[] }
  | { readonly status: number; readonly error: string };

export interface RecordedRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
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
    requests.push({ path: req.url ?? "", body });
    const reply = replies[next++] ?? { status: 500, error: "wire mock: no reply scripted" };
    if ("status" in reply) {
      res.writeHead(reply.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: reply.error, type: "server_error", code: null } }));
      return;
    }
    const payload = req.url?.endsWith("/responses")
      ? responsesPayload(reply, next)
      : chatPayload(reply, next);
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
