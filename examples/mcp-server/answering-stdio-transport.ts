// The example's stdio transport: it reads stdin itself and answers the lines the SDK's `StdioServerTransport`
// drops without a word, which left a client that sent one waiting for an answer that never came (until its
// own timeout). JSON-RPC 2.0 answers them: a line that is not JSON gets a Parse error (-32700); JSON that is
// no JSON-RPC message (a request with no `method`, a batch: MCP removed batches in 2025-06-18) an Invalid
// Request (-32600), to each request id it holds. MCP's error response leaves `id` out when it could not be
// read (2025-11-25, "Error Responses"): JSON-RPC's `id: null` is no MCP message, and a stdio server writes
// only MCP messages to stdout. Each is said on stderr too, which clients log. Writing stays the SDK's.
import { PassThrough, type Readable, type Writable } from "node:stream";
import {
  deserializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

/** A stdio transport for `serveStdio(factory, { transport })` that answers the lines it cannot serve. */
export class AnsweringStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  /** The SDK's transport, for writing and closing only: its stdin never gets a byte. */
  private readonly writer: StdioServerTransport;
  /** The end of a line not read yet. */
  private buffer: Buffer | undefined;
  private closed = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
    private readonly stderr: Writable = process.stderr,
  ) {
    this.writer = new StdioServerTransport(new PassThrough(), stdout);
  }

  get onclose(): (() => void) | undefined {
    return this.writer.onclose;
  }
  set onclose(handler: (() => void) | undefined) {
    this.writer.onclose = handler;
  }
  get onerror(): ((error: Error) => void) | undefined {
    return this.writer.onerror;
  }
  set onerror(handler: ((error: Error) => void) | undefined) {
    this.writer.onerror = handler;
  }

  async start(): Promise<void> {
    await this.writer.start();
    this.stdin.on("data", this.read);
    this.stdin.on("error", this.failed);
    // The client closed its end: the session ends, as the SDK's transport ends it.
    this.stdin.on("end", this.ended);
    this.stdin.on("close", this.ended);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.writer.send(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off("data", this.read);
    this.stdin.off("error", this.failed);
    this.stdin.off("end", this.ended);
    this.stdin.off("close", this.ended);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause(); // so the process can exit
    this.buffer = undefined;
    await this.writer.close();
  }

  private readonly failed = (error: Error) => this.onerror?.(error);
  private readonly ended = () => void this.close();

  /** Each line of stdin, as the SDK's `ReadBuffer` splits them (and with its size limit). */
  private readonly read = (chunk: Buffer) => {
    if ((this.buffer?.length ?? 0) + chunk.length > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      // The SDK's rule: the connection closes (its client reads "Connection closed"); said here, as it is not.
      const message = `a line of stdin is longer than ${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes, the most a message may have: the connection is closed`;
      this.stderr.write(`MCP stdio: ${message}\n`);
      this.onerror?.(new Error(message));
      void this.close();
      return;
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (let end = this.buffer.indexOf(0x0a); end !== -1; end = this.buffer.indexOf(0x0a)) {
      const line = this.buffer.toString("utf8", 0, end).replace(/\r$/, "");
      this.buffer = this.buffer.subarray(end + 1);
      if (line.trim() !== "") this.line(line); // a blank line holds no message, and asks nothing
    }
  };

  private line(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line); // the SDK's own rule for what a message is
    } catch (error) {
      return this.refuse(line, error);
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(asError(error));
    }
  }

  /** Answers a line that is no message: to each request id it holds, or once without an id. */
  private refuse(line: string, error: unknown): void {
    const notJson = error instanceof SyntaxError;
    const value: unknown = notJson ? undefined : JSON.parse(line);
    const problem = notJson
      ? { code: -32700, message: `Parse error: the line is not JSON (${error.message})` }
      : {
          code: -32600,
          message: Array.isArray(value)
            ? "Invalid Request: JSON-RPC batches are not part of MCP (removed in 2025-06-18): send each message on a line of its own"
            : "Invalid Request: the line is JSON but no JSON-RPC request, notification or response",
        };
    const ids = requestIds(value);
    this.stderr.write(
      `MCP stdio: a line of stdin (${line.length} characters) was not served, answered ${problem.code} ${problem.message}` +
        (ids.length > 0 ? ` (request ids ${ids.map((id) => JSON.stringify(id)).join(", ")})\n` : "\n"),
    );
    const answers: JSONRPCErrorResponse[] =
      ids.length > 0
        ? ids.map((id) => ({ jsonrpc: "2.0", id, error: problem }))
        : [{ jsonrpc: "2.0", error: problem }];
    for (const answer of answers) this.send(answer).catch((e: unknown) => this.onerror?.(asError(e)));
  }
}

/** The ids of the requests a value that is no message holds (itself, or a batch's members); not responses'. */
function requestIds(value: unknown): RequestId[] {
  return (Array.isArray(value) ? value : [value]).flatMap((item: unknown) => {
    if (typeof item !== "object" || item === null || "result" in item || "error" in item) return [];
    const id = (item as { id?: unknown }).id;
    return typeof id === "string" || typeof id === "number" ? [id] : [];
  });
}

function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
