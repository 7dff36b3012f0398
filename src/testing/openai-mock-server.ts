// What the scripted stand-ins for the OpenAI APIs (Responses, Chat Completions) share: one POST endpoint
// on the local server; each request read into what a script needs, and kept; the script's answer sent
// as one JSON body, or as server-sent events when the request asks for a stream; a scripted error as the
// API sends one (its HTTP status and an `error` object), and a script that throws as a 500.
import { startLocalHttpServer } from "./local-http-server.js";

/** A scripted failure: the HTTP status and the error message the API answers with (a rate limit, a 500). */
export interface OpenAiErrorReply {
  /** The HTTP status (`429`, `500`, `400`). */
  readonly status: number;
  /** The error's message, as the provider's error will carry it. */
  readonly error: string;
}

/**
 * One scripted answer of an OpenAI mock: a final text, function calls by the names the model was offered,
 * or an error the API answers with (its HTTP status and message).
 */
export type ResponsesReply =
  | { readonly text: string }
  | { readonly toolCalls: readonly { readonly name: string; readonly input: unknown }[] }
  | OpenAiErrorReply;

/** A scripted answer that is not an error: what a mock's API turns into a response. */
export type Answer = Exclude<ResponsesReply, OpenAiErrorReply>;

/** A request's headers, names in lower case (a repeated one as a list). */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What both OpenAI mocks read from a request for a script or a test, besides its body. */
export interface OpenAiMockRequest {
  /** The request's headers, names in lower case (the SDK's `user-agent`, your `headers`). */
  readonly headers: RequestHeaders;
  /** The functions the model may call (for the Responses API, then those a client tool search delivered). */
  readonly offeredTools: readonly string[];
  /** The functions the model called so far in the conversation this request carries. */
  readonly calledTools: readonly string[];
  /** Every tool output in the conversation: the text the model read. */
  readonly toolResults: readonly { readonly text: string }[];
  /** All the text of the conversation, for checks that something was (or was not) said. */
  readonly text: string;
}

/** A request that may ask for a stream. */
interface StreamAsked {
  readonly body: { readonly stream?: boolean };
}

/** One OpenAI API as a mock serves it. */
export interface OpenAiMockApi<Request extends OpenAiMockRequest & StreamAsked, Reply> {
  /** The endpoint, after the origin (`/v1/responses`). */
  readonly path: string;
  /** The request as scripts and tests read it. */
  read(body: Record<string, unknown>, headers: RequestHeaders): Request;
  /** The whole response carrying `reply`. */
  whole(reply: Reply, request: Request): unknown;
  /** The same response as the text of its server-sent events. */
  events(reply: Reply, request: Request): string;
}

/** A running OpenAI mock: where the provider goes, what it sent, and how to stop it. */
export interface OpenAiMockServer<Request> {
  readonly baseURL: string;
  readonly requests: readonly Request[];
  close(): Promise<void>;
}

/** Serves `api` on 127.0.0.1 (a free port), answering each request with what `reply` returns for it. */
export async function startOpenAiMockServer<
  Request extends OpenAiMockRequest & StreamAsked,
  Reply extends object,
>(
  api: OpenAiMockApi<Request, Reply>,
  reply: (request: Request) => Reply | OpenAiErrorReply,
): Promise<OpenAiMockServer<Request>> {
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
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "The body is not JSON", type: "invalid_request_error" } }));
      return;
    }
    const request = api.read(body, req.headers);
    requests.push(request);
    let answer: Reply | OpenAiErrorReply;
    try {
      answer = reply(request);
    } catch (error) {
      answer = { status: 500, error: String(error) };
    }
    if ("status" in answer && "error" in answer) {
      res.writeHead(answer.status, { "content-type": "application/json" });
      const type = answer.status < 500 ? "invalid_request_error" : "server_error";
      res.end(JSON.stringify({ error: { message: answer.error, type, code: null } }));
      return;
    }
    if (request.body.stream !== true) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(api.whole(answer, request)));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.end(api.events(answer, request));
  });
  return { baseURL: `${server.origin}/v1`, requests, close: server.close };
}

/** Text in the pieces a streaming model sends it in: word by word, each with the spaces after it. */
export function textPieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** What a tool's output or a message said, as text: a string, or the text of a list of content parts. */
export function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return JSON.stringify(content);
  return (content as { text?: unknown }[]).map((p) => (typeof p.text === "string" ? p.text : "")).join("");
}
