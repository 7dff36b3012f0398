// A scripted stand-in for the OpenAI Responses API (`POST /v1/responses`), for runs through the real
// `@ai-sdk/openai` provider (`.responses`) without a key or a network: point the provider's `baseURL` at
// it and answer each request from what it carries (the tools offered, deferred ones included, the calls
// made and the results read), as a model would. How the examples' recordings are made. Only node:http.
import {
  partsText,
  startOpenAiMockServer,
  textPieces,
  type OpenAiMockApi,
  type OpenAiMockRequest,
} from "./openai-mock-server.js";
import { ResponsesStore } from "./responses-store.js";
import {
  typedEventStream,
  type MockAnswer,
  type MockReply,
  type RequestHeaders,
} from "./scripted-api-server.js";

/** A request the mock received, with what a script or a test reads from it. */
export interface ResponsesRequest extends OpenAiMockRequest {
  /** The request body as sent. */
  readonly body: {
    readonly model?: string;
    readonly stream?: boolean;
    readonly tools?: readonly { readonly type: string; readonly name?: string }[];
    /** The conversation's items, or one user message's text (`input: "text"`, as the API accepts it). */
    readonly input: string | readonly Readonly<Record<string, unknown>>[];
    /** Every other field the provider sent (`temperature`, `max_output_tokens`, `user`, …). */
    readonly [field: string]: unknown;
  };
}

/** A running mock; `close` stops it. */
export interface OpenAiResponsesMock {
  /** For `createOpenAI({ baseURL })`: ends in `/v1`. */
  readonly baseURL: string;
  /** Every `POST /v1/responses` so far, in order. */
  readonly requests: readonly ResponsesRequest[];
  /** Stops the server. */
  close(): Promise<void>;
}

/** Input and output tokens the mock reports for each response (the Chat Completions mock's too). */
export const RESPONSES_MOCK_USAGE = { inputTokens: 100, outputTokens: 7 } as const;

type Item = Readonly<Record<string, unknown>>;

/**
 * Starts a mock of `POST /v1/responses` on 127.0.0.1 (a free port) that answers each request, streamed
 * (SSE, text word by word) when it asks for a stream and as one JSON response when it does not, with what
 * `reply` returns for it. A call to a function inside a namespace (one the request's `tools` list, as
 * Codex offers an MCP server's tools as `mcp__<server>`, or one a client tool search delivered) carries
 * that namespace, as the real API's does: a script names the function only. Ids are numbered by the mock's
 * requests (`resp_3`, `msg_3`, `call_3_0`), so no two responses or calls of one mock share one, as no two of
 * the API's do, whatever conversations it is sent; timestamps are 0, so the same requests in the same order
 * get the same bytes. It keeps what it answered as the API stores responses (unless a request sends
 * `store: false`): an `item_reference` to an item it answered (as `@ai-sdk/openai` sends an earlier answer)
 * and a `previous_response_id` are read as the items they stand for, and a string `input` as one user
 * message, so `calledTools`, `toolResults` and `text` are the conversation the API would read. A request
 * naming what it did not keep is refused as the API refuses it, before any script reads it (and it is not
 * in `requests`): an unknown `previous_response_id` with a 400 (`code: "previous_response_not_found"`), a
 * reference to an unknown item with a 404 (`param: "input"`). Another path gets a 404; a `reply` that
 * throws, a 500.
 */
export function startOpenAiResponsesMock(
  reply: (request: ResponsesRequest) => MockReply,
): Promise<OpenAiResponsesMock> {
  return startOpenAiMockServer(responsesApi(new ResponsesStore()), reply);
}

/** The Responses API of one mock, which keeps its answers in `store`. */
function responsesApi(store: ResponsesStore): OpenAiMockApi<ResponsesRequest> {
  const answered = (answer: MockAnswer, request: ResponsesRequest, n: number) => {
    const conversation = store.conversationOf(request.body);
    return store.keep(request.body, conversation, responseOf(answer, request, n, conversation));
  };
  return {
    path: "/v1/responses",
    refuse: (body) => store.refusal(body),
    read: (body, headers) => readRequest(body as ResponsesRequest["body"], headers, store),
    whole: (answer, request, n) => answered(answer, request, n),
    events: (answer, request, n) => typedEventStream(eventsOf(answer, answered(answer, request, n))),
  };
}

/**
 * A whole Responses API response carrying `answer`, its ids numbered by the request's number `n` on the mock:
 * numbered by conversation, two conversations sent to one mock (the `codex` binary's threads) would get the
 * same ids, and a run holding both threads' calls two calls with one id.
 */
function responseOf(
  answer: MockAnswer,
  request: ResponsesRequest,
  n: number,
  conversation: readonly Item[],
): { readonly id: string; readonly output: readonly Item[] } & Record<string, unknown> {
  const namespaces = namespacesOf(request.body, conversation);
  const output =
    "text" in answer
      ? [
          {
            type: "message",
            id: `msg_${n}`,
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: answer.text, annotations: [] }],
          },
        ]
      : answer.toolCalls.map((c, i) => {
          const namespace = namespaces.get(c.name);
          return {
            type: "function_call",
            id: `fc_${n}_${i}`,
            call_id: `call_${n}_${i}`,
            name: c.name,
            ...(namespace ? { namespace } : {}),
            arguments: JSON.stringify(c.input ?? {}),
            status: "completed",
          };
        });
  return {
    id: `resp_${n}`,
    object: "response",
    created_at: 0,
    status: "completed",
    model: request.body.model ?? "gpt-mock",
    output,
    incomplete_details: null,
    usage: {
      input_tokens: RESPONSES_MOCK_USAGE.inputTokens,
      output_tokens: RESPONSES_MOCK_USAGE.outputTokens,
      total_tokens: RESPONSES_MOCK_USAGE.inputTokens + RESPONSES_MOCK_USAGE.outputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

/**
 * The same response as stream events: created; each output item added, its text word by word or its
 * arguments as one delta, done; completed.
 */
function eventsOf(answer: MockAnswer, response: Record<string, unknown>): Item[] {
  const { output, ...rest } = response as { output: Item[] };
  const events: Item[] = [
    { type: "response.created", response: { ...rest, status: "in_progress", output: [] } },
  ];
  for (const [index, item] of output.entries()) {
    const isText = "text" in answer;
    events.push({
      type: "response.output_item.added",
      output_index: index,
      item: { ...item, status: "in_progress", ...(isText ? { content: [] } : { arguments: "" }) },
    });
    if (isText)
      for (const delta of textPieces(answer.text))
        events.push({
          type: "response.output_text.delta",
          item_id: item.id,
          output_index: index,
          content_index: 0,
          delta,
        });
    else
      events.push({
        type: "response.function_call_arguments.delta",
        item_id: item.id,
        output_index: index,
        delta: item.arguments,
      });
    events.push({ type: "response.output_item.done", output_index: index, item });
  }
  events.push({ type: "response.completed", response });
  return events;
}

function readRequest(
  body: ResponsesRequest["body"],
  headers: RequestHeaders,
  store: ResponsesStore,
): ResponsesRequest {
  const input = store.conversationOf(body);
  return {
    body,
    headers,
    offeredTools: [...namespacesOf(body, input).keys()],
    calledTools: input.flatMap((i) => (i.type === "function_call" ? [String(i.name)] : [])),
    toolResults: input.flatMap((i) =>
      i.type === "function_call_output" ? [{ text: partsText(i.output) }] : [],
    ),
    text: JSON.stringify(input),
  };
}

/**
 * The functions the model may call, in the order offered, each with its namespace (`""` for none): those of
 * the request's tool list, plain or in a namespace, then those a client tool search delivered in the
 * conversation.
 */
function namespacesOf(body: ResponsesRequest["body"], conversation: readonly Item[]): Map<string, string> {
  const namespaces = new Map<string, string>();
  const add = (tools: unknown) => {
    for (const tool of Array.isArray(tools) ? (tools as Item[]) : []) {
      if (tool.type === "namespace" && Array.isArray(tool.tools))
        for (const fn of tool.tools as Item[]) namespaces.set(String(fn.name), String(tool.name));
      else if (tool.type === "function" && tool.name) namespaces.set(String(tool.name), "");
    }
  };
  add(body.tools);
  for (const item of conversation) if (item.type === "tool_search_output") add(item.tools);
  return namespaces;
}
