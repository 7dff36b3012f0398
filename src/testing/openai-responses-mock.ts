// A scripted stand-in for the OpenAI Responses API (`POST /v1/responses`), for runs through the real
// `@ai-sdk/openai` provider (`.responses`) without a key or a network: point the provider's `baseURL` at
// it and answer each request from what it carries (the tools offered, deferred ones included, the calls
// made and the results read), as a model would. How the examples' recordings are made. Only node:http.
import { startLocalHttpServer } from "./local-http-server.js";

/** One scripted answer: a final text, or function calls by the names the model was offered. */
export type ResponsesReply =
  | { readonly text: string }
  | { readonly toolCalls: readonly { readonly name: string; readonly input: unknown }[] };

/** A request the mock received, with what a script or a test reads from it. */
export interface ResponsesRequest {
  /** The request body as sent. */
  readonly body: {
    readonly model?: string;
    readonly stream?: boolean;
    readonly tools?: readonly { readonly type: string; readonly name?: string }[];
    readonly input: readonly Readonly<Record<string, unknown>>[];
  };
  /** The functions the model may call: the request's, then those a client tool search delivered. */
  readonly offeredTools: readonly string[];
  /** The functions the model called so far in the conversation this request carries. */
  readonly calledTools: readonly string[];
  /** Every function call output in the conversation: the text the model read. */
  readonly toolResults: readonly { readonly text: string }[];
  /** All the text of the input, for checks that something was (or was not) said. */
  readonly text: string;
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

/** Input and output tokens the mock reports for each response. */
export const RESPONSES_MOCK_USAGE = { inputTokens: 100, outputTokens: 7 } as const;

type Item = Readonly<Record<string, unknown>>;

/**
 * Starts a mock of `POST /v1/responses` on 127.0.0.1 (a free port) that answers each request, streamed
 * (SSE) when it asks for a stream and as one JSON response when it does not, with what `reply` returns
 * for it. A call to a function delivered inside a tool search namespace carries that namespace, as the
 * real API's does. Ids and timestamps depend only on the conversation the request carries, so the same
 * conversation gets the same bytes every time. Anything else gets a 404; a `reply` that throws, a 500.
 */
export async function startOpenAiResponsesMock(
  reply: (request: ResponsesRequest) => ResponsesReply,
): Promise<OpenAiResponsesMock> {
  const requests: ResponsesRequest[] = [];
  const server = await startLocalHttpServer((req, res, text) => {
    if (req.method !== "POST" || !/^\/v1\/responses(\?|$)/.test(req.url ?? "")) {
      res.writeHead(404).end();
      return;
    }
    const { request, namespaces } = readRequest(JSON.parse(text) as ResponsesRequest["body"]);
    requests.push(request);
    let answer: ResponsesReply;
    try {
      answer = reply(request);
    } catch (error) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(error), type: "server_error", code: null } }));
      return;
    }
    // Numbered by the answers the conversation already holds, so the same conversation gets the same ids.
    const n =
      1 + request.body.input.filter((i) => i.type === "function_call" || i.role === "assistant").length;
    const response = responseOf(answer, n, request.body.model, namespaces);
    if (request.body.stream !== true) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(response));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const event of eventsOf(response))
      res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
    res.end();
  });
  return { baseURL: `${server.origin}/v1`, requests, close: server.close };
}

/** A whole Responses API response carrying `answer`. */
function responseOf(
  answer: ResponsesReply,
  n: number,
  model: string | undefined,
  namespaces: ReadonlyMap<string, string>,
): Record<string, unknown> {
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
    model: model ?? "gpt-mock",
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
 * The same response as stream events: created; each output item added, its text or arguments as one
 * delta, done; completed.
 */
function eventsOf(response: Record<string, unknown>): Item[] {
  const { output, ...rest } = response as { output: Item[] };
  const events: Item[] = [
    { type: "response.created", response: { ...rest, status: "in_progress", output: [] } },
  ];
  for (const [index, item] of output.entries()) {
    const isText = item.type === "message";
    events.push({
      type: "response.output_item.added",
      output_index: index,
      item: { ...item, status: "in_progress", ...(isText ? { content: [] } : { arguments: "" }) },
    });
    events.push(
      isText
        ? {
            type: "response.output_text.delta",
            item_id: item.id,
            output_index: index,
            content_index: 0,
            delta: (item.content as { text: string }[])[0]!.text,
          }
        : {
            type: "response.function_call_arguments.delta",
            item_id: item.id,
            output_index: index,
            delta: item.arguments,
          },
    );
    events.push({ type: "response.output_item.done", output_index: index, item });
  }
  events.push({ type: "response.completed", response });
  return events;
}

function readRequest(body: ResponsesRequest["body"]): {
  request: ResponsesRequest;
  namespaces: Map<string, string>;
} {
  const input = Array.isArray(body.input) ? body.input : [];
  const namespaces = new Map<string, string>();
  for (const item of input) {
    if (item.type !== "tool_search_output" || !Array.isArray(item.tools)) continue;
    for (const tool of item.tools as Item[]) {
      if (tool.type === "namespace" && Array.isArray(tool.tools))
        for (const fn of tool.tools as Item[]) namespaces.set(String(fn.name), String(tool.name));
      else if (tool.type === "function") namespaces.set(String(tool.name), "");
    }
  }
  const listed = (body.tools ?? []).flatMap((t) => (t.type === "function" && t.name ? [t.name] : []));
  const request: ResponsesRequest = {
    body,
    offeredTools: [...new Set([...listed, ...namespaces.keys()])],
    calledTools: input.flatMap((i) => (i.type === "function_call" ? [String(i.name)] : [])),
    toolResults: input.flatMap((i) =>
      i.type === "function_call_output" ? [{ text: outputText(i.output) }] : [],
    ),
    text: JSON.stringify(input),
  };
  return { request, namespaces };
}

/** A function call output's text (a string, or a list of content parts). */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (!Array.isArray(output)) return JSON.stringify(output);
  return (output as { text?: unknown }[]).map((p) => (typeof p.text === "string" ? p.text : "")).join("");
}
