// The SDK's Streamable HTTP server transport, with two rules added. When it closes (a session's client sent
// DELETE, or the host closed the session: idle, too many, shutting down), each request it has not answered
// yet is answered `-32000 Session closed` on its own stream first. The SDK's server aborts those calls and
// drops what they return, and its close ends their streams without a word, so a client that ended its
// session mid-call (the SDK clients' `terminateSession`, v1 and v2) waited for the call until its own
// timeout (60 s). Only the transport can do it: its close ends the streams before the server hears of it.
// A JSON-RPC batch is refused in a session whose protocol version has none (`batch-refusal.ts`).
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  WebStandardStreamableHTTPServerTransport,
  type HandleRequestOptions,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type TransportSendOptions,
  type WebStandardStreamableHTTPServerTransportOptions,
} from "@modelcontextprotocol/server";
import { BATCHES_REMOVED, batchRefused, isBatch } from "./batch-refusal.js";

/** What a request still running when its session closed is answered (JSON-RPC's implementation-defined range). */
const SESSION_CLOSED = {
  code: -32000,
  message: "Session closed: the session ended while this request ran, and its result will not be sent",
} as const;

/** The handler the server connected to the transport receives messages through. */
type MessageHandler = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/**
 * The SDK's `WebStandardStreamableHTTPServerTransport` (same options, same use), which answers the
 * requests it has not answered yet when it closes: the client's `DELETE` of the session, or your host
 * closing it (idle, past a session limit, shutting down). Each such request gets the JSON-RPC error
 * `-32000 Session closed: the session ended while this request ran, and its result will not be sent` on
 * its own stream before the streams end, so its caller is told at once instead of waiting for its own
 * timeout (the SDK's transport ends the streams without an answer). The call itself is cancelled as
 * before (its `signal` fires) and what it returns later is dropped. A request the client cancelled
 * (`notifications/cancelled`) is not answered, as the spec says. And a JSON-RPC batch (a POST whose body is
 * an array) in a session negotiated at 2025-06-18 or later, which removed batches, is refused 400
 * `-32600 Invalid Request: this session speaks protocol 2025-11-25, which has no JSON-RPC batches …` and
 * nothing of it runs (the SDK's transport serves it); a 2025-03-26 session, whose spec had batches, is
 * served them.
 *
 * Use it where you would use the SDK's, for a sessionful 2025-11-25 host:
 * `const transport = new McpStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() })`,
 * `await createMcpServer(options).connect(transport)`, then `transport.handleRequest(request)` for each
 * request of the session (with `@modelcontextprotocol/node`'s `toNodeHandler` on Node's `http`).
 */
export class McpStreamableHTTPServerTransport extends WebStandardStreamableHTTPServerTransport {
  private readonly unanswered = new Set<RequestId>();
  /** The session's protocol version, once its `initialize` negotiated one. */
  private protocolVersion: string | undefined;

  /** @param options - The SDK transport's options (`sessionIdGenerator`, `onsessionclosed`, …), unchanged. */
  constructor(options?: WebStandardStreamableHTTPServerTransportOptions) {
    super(options);
    // Every message the transport delivers passes here, whoever sets the handler and when (the SDK's
    // `connect` sets it, an application may set its own): the requests are counted before it runs. Each
    // handler set is wrapped once, so one that chains the handler it replaced (as `connect` does) calls
    // that one's wrapper, never itself; a message counted twice is counted once (a set).
    let wrapped: MessageHandler | undefined;
    Object.defineProperty(this, "onmessage", {
      configurable: true,
      enumerable: true,
      get: () => wrapped,
      set: (handler: MessageHandler | undefined) => {
        wrapped = handler && ((message, extra) => (this.received(message), handler(message, extra)));
      },
    });
  }

  /** Told by the server the session's protocol version, at `initialize`. */
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /**
   * Told by the server the protocol versions it supports, at `connect`, for the SDK transport's header
   * check. (Unchanged: declared here for its own comment, as the SDK's links to a page the reference has not.)
   */
  override setSupportedProtocolVersions(versions: string[]): void {
    super.setSupportedProtocolVersions(versions);
  }

  /** Serves one HTTP request of the session as the SDK's transport does, a batch refused where the version has none. */
  override async handleRequest(request: Request, options?: HandleRequestOptions): Promise<Response> {
    const version = this.protocolVersion;
    if (version !== undefined && version >= BATCHES_REMOVED && (await isBatch(request, options?.parsedBody)))
      return batchRefused(version);
    return super.handleRequest(request, options);
  }

  /** Sends a message as the SDK's transport does; a response settles its request. */
  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))
      if (message.id !== undefined) this.unanswered.delete(message.id);
    return super.send(message, options);
  }

  /** Answers each request not answered yet with `-32000 Session closed`, then closes as the SDK's transport does. */
  override async close(): Promise<void> {
    const waiting = [...this.unanswered];
    this.unanswered.clear();
    // On each request's own stream, while it is open; a client that left already is not told.
    for (const id of waiting)
      await super.send({ jsonrpc: "2.0", id, error: SESSION_CLOSED }).catch(() => undefined);
    return super.close();
  }

  private received(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) this.unanswered.add(message.id);
    // A request the client cancelled is not answered (the spec), and no longer waited for.
    else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.unanswered.delete(id);
    }
  }
}
