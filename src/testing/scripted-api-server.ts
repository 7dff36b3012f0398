// What every scripted stand-in for a model API (OpenAI Responses and Chat Completions, Anthropic Messages)
// shares, so each answers the same way where the APIs agree: one POST endpoint on the local server; each
// request read into what a script needs, and kept; the script's answer sent as one JSON body, or as
// server-sent events when the request asks for a stream; a scripted error with its HTTP status and the
// API's own error body; a script that throws as a 500 naming what it threw; a body that is not JSON as a
// 400, and one the API refuses before a model reads it (it names what the API does not hold) as the API
// refuses it; any other method or path as a 404. Only the shapes differ, and each API gives its own.
import type { ServerResponse } from "node:http";
import { startLocalHttpServer } from "./local-http-server.js";

/**
 * A scripted failure of a model API mock: the HTTP status and the error message the API answers with (a
 * rate limit, an overloaded server), in that API's error body, so the provider package throws its own
 * error for it (`APICallError` with `statusCode` in the AI SDK's providers).
 */
export interface MockErrorReply {
  /** The HTTP status (`429`, `500`, `529`, `400`). */
  readonly status: number;
  /** The error's message, as the provider's error will carry it. */
  readonly error: string;
  /**
   * Seconds the client should wait before it retries, sent as the `retry-after` header (as both APIs send it
   * with a 429), which the AI SDK's retries wait for: `0` retries at once. Default: no header.
   */
  readonly retryAfter?: number | undefined;
}

/**
 * One scripted answer of a model API mock (OpenAI Responses and Chat Completions, Anthropic Messages): a
 * final text, tool calls by the names the model was offered, or an error the API answers with (its HTTP
 * status and message: `{ status: 429, error: "rate limited" }`).
 */
export type MockReply =
  | { readonly text: string }
  | { readonly toolCalls: readonly { readonly name: string; readonly input: unknown }[] }
  | MockErrorReply;

/** A scripted answer that is not an error: what a mock's API turns into a response. */
export type MockAnswer = Exclude<MockReply, MockErrorReply>;

/** A request's headers, names in lower case (a repeated one as a list). */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A request that may ask for a stream. */
interface StreamAsked {
  readonly body: { readonly stream?: boolean };
}

/** One model API as a mock serves it: its endpoint, its view of a request, its answers and its errors. */
export interface ScriptedApi<Request extends StreamAsked, Answer> {
  /** The endpoint, after the origin (`/v1/responses`). */
  readonly path: string;
  /** The request as scripts and tests read it. */
  read(body: Record<string, unknown>, headers: RequestHeaders): Request;
  /** The whole response carrying `answer`; `number` counts the requests the server received, from 1. */
  whole(answer: Answer, request: Request, number: number): unknown;
  /** The same response as the text of its server-sent events. */
  events(answer: Answer, request: Request, number: number): string;
  /** The API's error body for a failure with this status and message. */
  errorBody(status: number, message: string): unknown;
  /**
   * The API's error (its status and body) for a request it refuses before a model reads it, as a 400 for a
   * body that is not JSON: such a request reaches no script and is not kept. Default: none is refused.
   */
  refuse?(body: Record<string, unknown>): { readonly status: number; readonly body: unknown } | undefined;
}

/** A running scripted API: its origin (`http://127.0.0.1:<port>`), what it was sent, how to stop it. */
export interface ScriptedApiServer<Request> {
  readonly origin: string;
  readonly requests: readonly Request[];
  close(): Promise<void>;
}

/** Serves `api` on 127.0.0.1 (a free port), answering each request with what `reply` returns for it. */
export async function startScriptedApiServer<Request extends StreamAsked, Answer extends object>(
  api: ScriptedApi<Request, Answer>,
  reply: (request: Request) => Answer | MockErrorReply,
): Promise<ScriptedApiServer<Request>> {
  const requests: Request[] = [];
  const server = await startLocalHttpServer((req, res, text) => {
    const path = (req.url ?? "").replace(/\?.*$/, "");
    if (req.method !== "POST" || path !== api.path) {
      res.writeHead(404).end();
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      sendJson(res, 400, api.errorBody(400, "The body is not JSON"));
      return;
    }
    const refused = api.refuse?.(body);
    if (refused) {
      sendJson(res, refused.status, refused.body);
      return;
    }
    const request = api.read(body, req.headers);
    const number = requests.push(request);
    // A script that throws, or returns what is no reply (a JavaScript script's string, promise or
    // `{ txt }`), is a 500 naming it: either crashed the test's process before.
    let answer: Answer | MockErrorReply;
    let sent: { readonly json: unknown } | { readonly events: string } | undefined;
    try {
      answer = checkedReply(reply(request));
      if (!isErrorReply(answer))
        sent =
          request.body.stream === true
            ? { events: api.events(answer, request, number) }
            : { json: api.whole(answer, request, number) };
    } catch (error) {
      answer = { status: 500, error: String(error) };
    }
    if (sent === undefined) {
      const failed = answer as MockErrorReply;
      const retry: Record<string, string> =
        failed.retryAfter === undefined ? {} : { "retry-after": String(failed.retryAfter) };
      sendJson(res, failed.status, api.errorBody(failed.status, failed.error), retry);
    } else if ("json" in sent) sendJson(res, 200, sent.json);
    else {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(sent.events);
    }
  });
  return { origin: server.origin, requests, close: server.close };
}

const isErrorReply = (answer: object): answer is MockErrorReply => "status" in answer && "error" in answer;

/** `answer` when it has one of the reply shapes, else a `TypeError` saying what it is. */
function checkedReply<Answer extends object>(answer: Answer | MockErrorReply): Answer | MockErrorReply {
  const value: unknown = answer;
  if (typeof value !== "object" || value === null)
    throw new TypeError(`${REPLY_SHAPES}, not ${value === null ? "null" : typeof value}`);
  if (typeof (value as { then?: unknown }).then === "function")
    throw new TypeError(`${REPLY_SHAPES}, synchronously, not a promise`);
  if (!["text", "toolCalls", "status"].some((key) => key in value))
    throw new TypeError(`${REPLY_SHAPES}, not an object with ${JSON.stringify(Object.keys(value))}`);
  return answer;
}

const REPLY_SHAPES =
  "The mock's reply must return a MockReply: { text }, { toolCalls: [{ name, input }] } or { status, error }";

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Events as the text of a server-sent event stream, each named by its `type` (as both APIs name theirs). */
export function typedEventStream(events: readonly Readonly<Record<string, unknown>>[]): string {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join("");
}
