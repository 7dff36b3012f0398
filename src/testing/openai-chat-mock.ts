// A scripted stand-in for the OpenAI Chat Completions API (`POST /v1/chat/completions`), the wire format
// of `@ai-sdk/openai`'s `.chat(…)` and of most OpenAI-compatible servers (`@ai-sdk/openai-compatible`): the
// Responses mock's twin for that API, with the same answers and the same view of each request.
import {
  partsText,
  startOpenAiMockServer,
  textPieces,
  type OpenAiMockApi,
  type OpenAiMockRequest,
} from "./openai-mock-server.js";
import type { MockAnswer, MockReply, RequestHeaders } from "./scripted-api-server.js";
import { RESPONSES_MOCK_USAGE } from "./openai-responses-mock.js";

/** A request the mock received, with what a script or a test reads from it. */
export interface ChatCompletionsRequest extends OpenAiMockRequest {
  /** The request body as sent. */
  readonly body: {
    readonly model?: string;
    readonly stream?: boolean;
    readonly tools?: readonly { readonly type: string; readonly function?: { readonly name: string } }[];
    readonly messages: readonly Readonly<Record<string, unknown>>[];
    /** Every other field the provider sent (`temperature`, `max_tokens`, `user`, …). */
    readonly [field: string]: unknown;
  };
}

/** A running mock; `close` stops it. */
export interface OpenAiChatMock {
  /** For `createOpenAI({ baseURL })` (or `createOpenAICompatible`): ends in `/v1`. */
  readonly baseURL: string;
  /** Every `POST /v1/chat/completions` so far, in order. */
  readonly requests: readonly ChatCompletionsRequest[];
  /** Stops the server. */
  close(): Promise<void>;
}

type Item = Readonly<Record<string, unknown>>;

/**
 * Starts a mock of `POST /v1/chat/completions` on 127.0.0.1 (a free port) that answers each request,
 * streamed (SSE, text word by word, usage last) when it asks for a stream and as one JSON completion when
 * it does not, with what `reply` returns for it: the answers `startOpenAiResponsesMock` takes, and the
 * usage it reports (`RESPONSES_MOCK_USAGE`). Ids are numbered by the mock's requests (`chatcmpl-3`,
 * `call_3_0`), so no two completions or calls of one mock share one, as the Responses mock's. Anything else
 * gets a 404; a `reply` that throws, a 500.
 */
export function startOpenAiChatMock(
  reply: (request: ChatCompletionsRequest) => MockReply,
): Promise<OpenAiChatMock> {
  return startOpenAiMockServer(CHAT_API, reply);
}

const CHAT_API: OpenAiMockApi<ChatCompletionsRequest> = {
  path: "/v1/chat/completions",
  read: (body, headers) => readRequest(body as ChatCompletionsRequest["body"], headers),
  whole: (answer, request, n) => completionOf(answer, request, n),
  events: (answer, request, n) =>
    [
      ...chunksOf(answer, request, n).map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`),
      "data: [DONE]\n\n",
    ].join(""),
};

const USAGE = {
  prompt_tokens: RESPONSES_MOCK_USAGE.inputTokens,
  completion_tokens: RESPONSES_MOCK_USAGE.outputTokens,
  total_tokens: RESPONSES_MOCK_USAGE.inputTokens + RESPONSES_MOCK_USAGE.outputTokens,
};

const toolCallsOf = (answer: MockAnswer, n: number) =>
  "toolCalls" in answer
    ? answer.toolCalls.map((c, i) => ({
        id: `call_${n}_${i}`,
        type: "function",
        function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) },
      }))
    : [];

/** A whole completion carrying `answer`, its ids numbered by the request's number `n` on the mock. */
function completionOf(answer: MockAnswer, request: ChatCompletionsRequest, n: number): Item {
  const toolCalls = toolCallsOf(answer, n);
  return {
    id: `chatcmpl-${n}`,
    object: "chat.completion",
    created: 0,
    model: request.body.model ?? "gpt-mock",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: "text" in answer ? answer.text : null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: USAGE,
  };
}

/** The same completion as stream chunks: the role, the text word by word or each call, the finish, usage. */
function chunksOf(answer: MockAnswer, request: ChatCompletionsRequest, n: number): Item[] {
  const chunk = (delta: Item, finish: string | null = null) => ({
    id: `chatcmpl-${n}`,
    object: "chat.completion.chunk",
    created: 0,
    model: request.body.model ?? "gpt-mock",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const toolCalls = toolCallsOf(answer, n);
  return [
    chunk({ role: "assistant", content: "" }),
    ...("text" in answer ? textPieces(answer.text).map((content) => chunk({ content })) : []),
    ...toolCalls.map((call, index) => chunk({ tool_calls: [{ index, ...call }] })),
    chunk({}, toolCalls.length > 0 ? "tool_calls" : "stop"),
    { ...chunk({}), choices: [], usage: USAGE },
  ];
}

const messagesOf = (body: ChatCompletionsRequest["body"]): readonly Item[] =>
  Array.isArray(body.messages) ? body.messages : [];

function readRequest(body: ChatCompletionsRequest["body"], headers: RequestHeaders): ChatCompletionsRequest {
  const messages = messagesOf(body);
  return {
    body,
    headers,
    offeredTools: (body.tools ?? []).flatMap((t) =>
      t.type === "function" && t.function ? [t.function.name] : [],
    ),
    calledTools: messages.flatMap((m) =>
      Array.isArray(m.tool_calls)
        ? (m.tool_calls as { function?: { name?: unknown } }[]).map((c) => String(c.function?.name))
        : [],
    ),
    toolResults: messages.flatMap((m) => (m.role === "tool" ? [{ text: partsText(m.content) }] : [])),
    text: JSON.stringify(messages),
  };
}
