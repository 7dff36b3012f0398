// A scripted stand-in for the Anthropic Messages API, for backends whose model loop runs in another
// process (Claude Code, through `entity-tools/claude`), where the scripted language model cannot reach:
// point the process at `baseURL` (ANTHROPIC_BASE_URL) and script the replies. Only node:http.
import { startLocalHttpServer } from "./local-http-server.js";

/** One scripted answer: a final text, or tool calls (by the name the model was offered). */
export type MessagesReply =
  | { readonly text: string }
  | { readonly toolCalls: readonly { readonly name: string; readonly input: unknown }[] };

/** A request the mock received, with what a script or a test reads from it. */
export interface MessagesRequest {
  /** The request body as sent. */
  readonly body: {
    readonly model?: string;
    readonly stream?: boolean;
    readonly tools?: readonly { readonly name: string }[];
    readonly messages: readonly { readonly role: string; readonly content: unknown }[];
  };
  /** The tools offered (deferred ones too), by the names the model sees. */
  readonly offeredTools: readonly string[];
  /** The tools the model called so far in the conversation this request carries. */
  readonly calledTools: readonly string[];
  /** Every tool result in the conversation: the text the model read, and whether it was an error. */
  readonly toolResults: readonly { readonly text: string; readonly isError: boolean }[];
  /** All the text of the messages, for checks that something was (or was not) said. */
  readonly text: string;
  /** The betas the request asked for (its `anthropic-beta` header). */
  readonly betas: readonly string[];
}

/** A running mock; `close` stops it. */
export interface AnthropicMessagesMock {
  /** For `ANTHROPIC_BASE_URL`. */
  readonly baseURL: string;
  /** Every `POST /v1/messages` so far, in order. */
  readonly requests: readonly MessagesRequest[];
  /** Stops the server. */
  close(): Promise<void>;
}

/** Input and output tokens the mock reports for each response, so usage reporting can be checked. */
export const MESSAGES_MOCK_USAGE = { inputTokens: 100, outputTokens: 7 } as const;

/**
 * Starts a mock of `POST /v1/messages` on 127.0.0.1 (a free port) that answers each request, streamed
 * (SSE) when it asks for a stream and as one JSON message when it does not, as the real API does, with
 * what `reply` returns for it. Anything else gets a 404.
 */
export async function startAnthropicMessagesMock(
  reply: (request: MessagesRequest) => MessagesReply,
): Promise<AnthropicMessagesMock> {
  const requests: MessagesRequest[] = [];
  const server = await startLocalHttpServer((req, res, text) => {
    if (req.method !== "POST" || !/^\/v1\/messages(\?|$)/.test(req.url ?? "")) {
      res.writeHead(404).end();
      return;
    }
    const beta = req.headers["anthropic-beta"];
    const betas = (Array.isArray(beta) ? beta.join(",") : (beta ?? "")).split(",").filter(Boolean);
    const request = readRequest(JSON.parse(text) as MessagesRequest["body"], betas);
    requests.push(request);
    const n = requests.length;
    let answer: MessagesReply;
    try {
      answer = reply(request);
    } catch (error) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(error) } }));
      return;
    }
    if (request.body.stream !== true) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(messageOf(answer, n, request.body.model)));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (event: Record<string, unknown>) =>
      res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
    send({
      type: "message_start",
      message: {
        id: `msg_${n}`,
        type: "message",
        role: "assistant",
        model: request.body.model ?? "claude-mock",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: MESSAGES_MOCK_USAGE.inputTokens, output_tokens: 0 },
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
      usage: { output_tokens: MESSAGES_MOCK_USAGE.outputTokens },
    });
    send({ type: "message_stop" });
    res.end();
  });
  return { baseURL: server.origin, requests, close: server.close };
}

type Block = { type?: string; name?: string; is_error?: boolean; content?: unknown; text?: string };

/** What Claude Code appends to tool results for its model (token budget notes): not part of the result. */
const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** A whole (not streamed) Messages API response carrying `answer`. */
function messageOf(answer: MessagesReply, n: number, model: string | undefined): Record<string, unknown> {
  return {
    id: `msg_${n}`,
    type: "message",
    role: "assistant",
    model: model ?? "claude-mock",
    content:
      "text" in answer
        ? [{ type: "text", text: answer.text }]
        : answer.toolCalls.map((c, i) => ({
            type: "tool_use",
            id: `toolu_${n}_${i}`,
            name: c.name,
            input: c.input,
          })),
    stop_reason: "text" in answer ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: { input_tokens: MESSAGES_MOCK_USAGE.inputTokens, output_tokens: MESSAGES_MOCK_USAGE.outputTokens },
  };
}

function readRequest(body: MessagesRequest["body"], betas: readonly string[]): MessagesRequest {
  const blocks = (content: unknown): Block[] => (Array.isArray(content) ? (content as Block[]) : []);
  const of = (role: string) => body.messages.filter((m) => m.role === role).flatMap((m) => blocks(m.content));
  return {
    body,
    offeredTools: (body.tools ?? []).map((t) => t.name),
    calledTools: of("assistant").flatMap((b) => (b.type === "tool_use" && b.name ? [b.name] : [])),
    toolResults: of("user").flatMap((b) =>
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
    ),
    text: JSON.stringify(body.messages),
    betas,
  };
}
