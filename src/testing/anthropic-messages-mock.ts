// A scripted stand-in for the Anthropic Messages API, for backends whose model loop runs in another
// process (Claude Code, through `entity-tools/claude`), where the scripted language model cannot reach,
// and for the real `@ai-sdk/anthropic` provider: point the process at `baseURL` (ANTHROPIC_BASE_URL) and
// script the replies. It answers as every model API mock does (scripted-api-server.ts). Only node:http.
import {
  startScriptedApiServer,
  typedEventStream,
  type MockAnswer,
  type MockReply,
  type RequestHeaders,
  type ScriptedApi,
} from "./scripted-api-server.js";

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
 * what `reply` returns for it. A scripted error is answered with its status and the API's error body
 * (`{"type":"error","error":{"type":"rate_limit_error","message":…}}`, the type the API gives that
 * status), so a provider throws its own error for it; a `reply` that throws gets a 500 (`api_error`), a
 * body that is not JSON a 400, anything else a 404.
 */
export async function startAnthropicMessagesMock(
  reply: (request: MessagesRequest) => MockReply,
): Promise<AnthropicMessagesMock> {
  const server = await startScriptedApiServer(MESSAGES_API, reply);
  return { baseURL: server.origin, requests: server.requests, close: server.close };
}

const MESSAGES_API: ScriptedApi<MessagesRequest, MockAnswer> = {
  path: "/v1/messages",
  read: (body, headers) => readRequest(body as MessagesRequest["body"], headers),
  whole: (answer, request, n) => messageOf(answer, n, request.body.model),
  events: (answer, request, n) => typedEventStream(eventsOf(answer, n, request.body.model)),
  errorBody: (status, message) => ({ type: "error", error: { type: errorTypeOf(status), message } }),
};

/** The error type the Messages API gives each status (docs.anthropic.com, "Errors"). */
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};
const errorTypeOf = (status: number) =>
  ERROR_TYPES[status] ?? (status < 500 ? "invalid_request_error" : "api_error");

/** The same message as stream events: started, each block started, its one delta, stopped; the end. */
function eventsOf(answer: MockAnswer, n: number, model: string | undefined): Record<string, unknown>[] {
  const blocks =
    "text" in answer
      ? [{ start: { type: "text", text: "" }, delta: { type: "text_delta", text: answer.text } }]
      : answer.toolCalls.map((c, i) => ({
          start: { type: "tool_use", id: `toolu_${n}_${i}`, name: c.name, input: {} },
          delta: { type: "input_json_delta", partial_json: JSON.stringify(c.input) },
        }));
  return [
    {
      type: "message_start",
      message: {
        id: `msg_${n}`,
        type: "message",
        role: "assistant",
        model: model ?? "claude-mock",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: MESSAGES_MOCK_USAGE.inputTokens, output_tokens: 0 },
      },
    },
    ...blocks.flatMap((block, index) => [
      { type: "content_block_start", index, content_block: block.start },
      { type: "content_block_delta", index, delta: block.delta },
      { type: "content_block_stop", index },
    ]),
    {
      type: "message_delta",
      delta: { stop_reason: "text" in answer ? "end_turn" : "tool_use", stop_sequence: null },
      usage: { output_tokens: MESSAGES_MOCK_USAGE.outputTokens },
    },
    { type: "message_stop" },
  ];
}

type Block = { type?: string; name?: string; is_error?: boolean; content?: unknown; text?: string };

/** What Claude Code appends to tool results for its model (token budget notes): not part of the result. */
const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** A whole (not streamed) Messages API response carrying `answer`. */
function messageOf(answer: MockAnswer, n: number, model: string | undefined): Record<string, unknown> {
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

function readRequest(body: MessagesRequest["body"], headers: RequestHeaders): MessagesRequest {
  const beta = headers["anthropic-beta"];
  const betas = (typeof beta === "string" ? beta : (beta ?? []).join(",")).split(",").filter(Boolean);
  const blocks = (content: unknown): Block[] => (Array.isArray(content) ? (content as Block[]) : []);
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const of = (role: string) => messages.filter((m) => m.role === role).flatMap((m) => blocks(m.content));
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
    text: JSON.stringify(messages),
    betas,
  };
}
