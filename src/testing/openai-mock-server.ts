// What the scripted stand-ins for the OpenAI APIs (Responses, Chat Completions) share, on the server every
// model API mock shares (scripted-api-server.ts): the answers a script gives, the view of each request,
// and the API's error body (an `error` object).
import {
  startScriptedApiServer,
  type MockAnswer,
  type MockReply,
  type RequestHeaders,
  type ScriptedApi,
} from "./scripted-api-server.js";

/** What both OpenAI mocks read from a request for a script or a test, besides its body. */
export interface OpenAiMockRequest {
  /** The request's headers, names in lower case (the SDK's `user-agent`, your `headers`). */
  readonly headers: RequestHeaders;
  /** The functions the model may call (for the Responses API, namespaced ones and those a client tool search delivered too). */
  readonly offeredTools: readonly string[];
  /** The functions the model called so far in the conversation this request carries. */
  readonly calledTools: readonly string[];
  /** Every tool output in the conversation: the text the model read. */
  readonly toolResults: readonly { readonly text: string }[];
  /** All the text of the conversation, for checks that something was (or was not) said. */
  readonly text: string;
}

/** Why an OpenAI API refuses a request before a model reads it: the HTTP status and its error's fields. */
export interface OpenAiRefusal {
  readonly status: number;
  readonly message: string;
  /** The request field at fault (`"input"`). */
  readonly param: string;
  /** The API's code for the error (`"previous_response_not_found"`), or null where it gives none. */
  readonly code: string | null;
}

/** One OpenAI API as a mock serves it (the error body is the one both APIs send). */
export type OpenAiMockApi<
  Request extends OpenAiMockRequest & { readonly body: { readonly stream?: boolean } },
> = Omit<ScriptedApi<Request, MockAnswer>, "errorBody" | "refuse"> & {
  /** The API's refusal of a request that names what it does not hold. Default: none is refused. */
  readonly refuse?: (body: Record<string, unknown>) => OpenAiRefusal | undefined;
};

/** A running OpenAI mock: where the provider goes, what it sent, and how to stop it. */
export interface OpenAiMockServer<Request> {
  readonly baseURL: string;
  readonly requests: readonly Request[];
  close(): Promise<void>;
}

/** Serves `api` on 127.0.0.1 (a free port), answering each request with what `reply` returns for it. */
export async function startOpenAiMockServer<
  Request extends OpenAiMockRequest & { readonly body: { readonly stream?: boolean } },
>(api: OpenAiMockApi<Request>, reply: (request: Request) => MockReply): Promise<OpenAiMockServer<Request>> {
  const refuse = (body: Record<string, unknown>) => {
    const refusal = api.refuse?.(body);
    if (!refusal) return undefined;
    const { status, message, param, code } = refusal;
    return { status, body: { error: { message, type: "invalid_request_error", param, code } } };
  };
  const server = await startScriptedApiServer({ ...api, errorBody: openAiErrorBody, refuse }, reply);
  return { baseURL: `${server.origin}/v1`, requests: server.requests, close: server.close };
}

/**
 * The OpenAI APIs' error body: the message, the type and code the API gives the status, and `param`. A 429
 * is a rate limit (`"type": "requests", "code": "rate_limit_exceeded"`, as the API reports one on requests
 * per minute, so a client that reads `error.code`, as OpenAI's guide on 429s says to, sees a rate limit and
 * not a quota); another status below 500 `invalid_request_error`, 500 and above `server_error`.
 */
const openAiErrorBody = (status: number, message: string) => ({
  error: {
    message,
    ...(status === 429
      ? { type: "requests", code: "rate_limit_exceeded" }
      : { type: status < 500 ? "invalid_request_error" : "server_error", code: null }),
    param: null,
  },
});

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
