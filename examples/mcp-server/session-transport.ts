// A legacy (2025-11-25) session's Streamable HTTP transport that answers, when the session closes, the
// requests it has not answered yet. Closing (the client's DELETE, idle, or past maxSessions) aborts the
// calls still running and the SDK drops what they return, so without this a client that ends its session
// mid-call (the SDK client's terminateSession) waited for that call until its own timeout (60 s).
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type RequestId,
  type TransportSendOptions,
} from "@modelcontextprotocol/server";

/** What a request still running when its session closed is answered (JSON-RPC's implementation-defined range). */
const SESSION_CLOSED = {
  code: -32000,
  message: "Session closed: the session ended while this request ran, and its result will not be sent",
} as const;

/** A session's transport that answers its unanswered requests with {@link SESSION_CLOSED} when it closes. */
export class SessionTransport extends WebStandardStreamableHTTPServerTransport {
  private readonly unanswered = new Set<RequestId>();

  constructor(options: ConstructorParameters<typeof WebStandardStreamableHTTPServerTransport>[0]) {
    super(options);
    // The server connected to it keeps this handler and calls it first (the SDK's `connect` chains it).
    this.onmessage = (message) => {
      if (isJSONRPCRequest(message)) this.unanswered.add(message.id);
      // A request the client cancelled is not answered (the spec), and no longer waited for.
      else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
        const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
        if (id !== undefined) this.unanswered.delete(id);
      }
    };
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))
      if (message.id !== undefined) this.unanswered.delete(message.id);
    return super.send(message, options);
  }

  override async close(): Promise<void> {
    const waiting = [...this.unanswered];
    this.unanswered.clear();
    // On each request's own stream, while it is open; a client that left already is not told.
    for (const id of waiting)
      await super.send({ jsonrpc: "2.0", id, error: SESSION_CLOSED }).catch(() => undefined);
    return super.close();
  }
}
