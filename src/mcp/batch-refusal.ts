// A JSON-RPC batch in a 2025-11-25 session whose protocol version has none. MCP 2025-06-18 removed batches,
// and its Streamable HTTP says a POST's body is one message; the SDK's session transport serves a batch
// whatever the session's version, so one POST could carry calls past anything that reads a request's one
// message. The SDK's 2026-07-28 handler refuses one already, with the same answer.

/** The protocol version that removed JSON-RPC batches: a session at it or later is sent single messages. */
export const BATCHES_REMOVED = "2025-06-18";

/** JSON's white space (RFC 8259): space, tab, line feed, carriage return. */
const JSON_WHITE_SPACE = [0x20, 0x09, 0x0a, 0x0d];

/**
 * Whether a POST's body is a JSON array: the body the application parsed already, else the first of its
 * bytes that is no white space is `[` (only those are read, from a clone: the transport reads it whole).
 */
export async function isBatch(request: Request, parsedBody: unknown): Promise<boolean> {
  if (request.method !== "POST") return false;
  if (parsedBody !== undefined) return Array.isArray(parsedBody);
  const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = request.clone().body?.getReader();
  if (!reader) return false;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const first = chunk.value.find((byte) => !JSON_WHITE_SPACE.includes(byte));
      if (first !== undefined) return first === 0x5b; // [
    }
    return false;
  } finally {
    void reader.cancel();
  }
}

/** The answer to a batch in a session of protocol `version`: 400 Invalid Request, saying why. Nothing runs. */
export function batchRefused(version: string): Response {
  return Response.json(
    {
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: `Invalid Request: this session speaks protocol ${version}, which has no JSON-RPC batches (removed in ${BATCHES_REMOVED}): send each message in a POST of its own`,
      },
      id: null,
    },
    { status: 400 },
  );
}
