// What a stdio line that cannot be served is answered, as JSON-RPC 2.0 says: a line that is not JSON, a
// Parse error (-32700); JSON that is no JSON-RPC message (a request with no `method`, a batch: MCP removed
// batches in 2025-06-18), an Invalid Request (-32600); a line past the size limit, an Invalid Request too
// (JSON-RPC has no code of its own for it). Each answer goes to every request id the line holds, so its
// caller fails at once; without one it is sent once with no `id` (MCP's error response leaves `id` out when
// it could not be read: JSON-RPC's `id: null` is no MCP message, and the SDK clients refuse it).
import { ProtocolErrorCode, type RequestId } from "@modelcontextprotocol/server";
import type { OversizedLine } from "./stdio-lines.js";

/** The error a line is answered with, and the ids of the requests it holds (none: answered once, without id). */
export interface UnservedLine {
  readonly error: { readonly code: number; readonly message: string };
  readonly ids: readonly RequestId[];
}

/** The answer to a whole line the SDK's `deserializeMessage` refused with `error`. */
export function unservedLine(line: string, error: unknown): UnservedLine {
  if (error instanceof SyntaxError)
    return {
      error: {
        code: ProtocolErrorCode.ParseError,
        message: `Parse error: the line is not JSON (${error.message})`,
      },
      ids: [],
    };
  const value: unknown = JSON.parse(line);
  return {
    error: {
      code: ProtocolErrorCode.InvalidRequest,
      message: Array.isArray(value)
        ? "Invalid Request: JSON-RPC batches are not part of MCP (removed in 2025-06-18): send each message on a line of its own"
        : "Invalid Request: the line is JSON but no JSON-RPC request, notification or response",
    },
    ids: requestIds(value),
  };
}

/** The answer to a line past `maxBytes`: to its request's id, when it was a request. */
export function oversizedLine(line: OversizedLine, maxBytes: number): UnservedLine {
  const { id } = line;
  return {
    error: {
      code: ProtocolErrorCode.InvalidRequest,
      message: `Invalid Request: the message is ${line.bytes} bytes long, more than the ${maxBytes} this server reads in one line: it was not read`,
    },
    ids: id === undefined ? [] : [id],
  };
}

/** The ids of the requests a value that is no message holds (itself, or a batch's members); not responses'. */
function requestIds(value: unknown): RequestId[] {
  return (Array.isArray(value) ? value : [value]).flatMap((item: unknown) => {
    if (typeof item !== "object" || item === null || "result" in item || "error" in item) return [];
    const id = (item as { id?: unknown }).id;
    return typeof id === "string" || typeof id === "number" ? [id] : [];
  });
}
