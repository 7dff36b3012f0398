// A stdio transport that answers the lines the SDK's `StdioServerTransport` cannot serve instead of dropping
// them (or, for one line too long, closing the connection): a client that sent one waited for an answer
// that never came, until its own timeout. It reads stdin itself (`StdioLines`, the answers in
// `unserved-line.ts`) and leaves writing and closing to the SDK's transport, given a stdin of its own that
// never gets a byte. Each unserved line is said on stderr too, which clients log (MCP's stdio transport
// lets a server write only MCP messages to stdout).
import { PassThrough, type Readable, type Writable } from "node:stream";
import {
  deserializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { StdioLines } from "./stdio-lines.js";
import { oversizedLine, unservedLine, type UnservedLine } from "./unserved-line.js";

/** Options of {@link McpStdioServerTransport}. */
export interface McpStdioServerTransportOptions {
  /**
   * The most bytes one line (one message) may have, as the SDK's `maxBufferSize`. A longer line is not
   * kept: it is answered and skipped, and the connection goes on. Default 10 MiB (the SDK's).
   */
  readonly maxBufferSize?: number | undefined;
  /** Where a line that was not served is said, one line each. Default `process.stderr`. */
  readonly stderr?: Writable | undefined;
}

/**
 * A stdio server transport for `serveStdio` (or `server.connect`) that answers every line it cannot serve,
 * where the SDK's `StdioServerTransport` drops it without a word and its client waits until its own
 * timeout. As JSON-RPC 2.0 says: a line that is not JSON is answered
 * `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: the line is not JSON (…)"}}`; JSON that is
 * no JSON-RPC message, or a batch (MCP has none since 2025-06-18), `-32600 Invalid Request`, to each
 * request id it holds, else once without an id (MCP's error response for an id that could not be read).
 * A line longer than `maxBufferSize` (10 MiB) is answered `-32600` too, to its request's id (read as the
 * line streams past), and skipped; the SDK's transport closes the connection instead. What is past the
 * limit is not kept, so memory stays within it whatever a client sends. Nothing of an unserved line runs, each is said on
 * `stderr`, the connection goes on, and a blank line is skipped. Otherwise it behaves as the SDK's: it
 * ends when stdin ends, and writes to stdout through the SDK's transport.
 *
 * `serveStdio(() => createMcpServer(options), { transport: new McpStdioServerTransport() })`
 */
export class McpStdioServerTransport implements Transport {
  /** Set by the server connected to it (the SDK's `connect`): each message read from stdin. */
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  /** The SDK's transport, for writing and closing only: its stdin never gets a byte. */
  private readonly writer: StdioServerTransport;
  private readonly lines: StdioLines;
  private readonly maxBytes: number;
  private readonly stderr: Writable;
  private closed = false;

  /**
   * @param stdin - Where messages are read from. Default `process.stdin`.
   * @param stdout - Where messages are written. Default `process.stdout`.
   * @param options - The line limit and where unserved lines are said.
   */
  constructor(
    private readonly stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
    options: McpStdioServerTransportOptions = {},
  ) {
    this.writer = new StdioServerTransport(new PassThrough(), stdout);
    this.maxBytes = options.maxBufferSize ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
    this.lines = new StdioLines(this.maxBytes);
    this.stderr = options.stderr ?? process.stderr;
  }

  /** Called once when the transport closed (stdin ended, or `close()`). */
  get onclose(): (() => void) | undefined {
    return this.writer.onclose;
  }
  set onclose(handler: (() => void) | undefined) {
    this.writer.onclose = handler;
  }
  /** Called with a failure of stdin or stdout, or of a handler. */
  get onerror(): ((error: Error) => void) | undefined {
    return this.writer.onerror;
  }
  set onerror(handler: ((error: Error) => void) | undefined) {
    this.writer.onerror = handler;
  }

  /** Starts reading stdin (the SDK's `connect` and `serveStdio` call it). */
  async start(): Promise<void> {
    await this.writer.start();
    // A client that closed its end already: the session ends, as the SDK's transport ends it.
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.ended);
    this.stdin.on("data", this.read);
    this.stdin.on("error", this.failed);
    this.stdin.on("end", this.ended);
    this.stdin.on("close", this.ended);
  }

  /** Writes one message to stdout, as a line. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.writer.send(message);
  }

  /** Stops reading stdin (pausing it, so the process can exit) and closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off("data", this.read);
    this.stdin.off("error", this.failed);
    this.stdin.off("end", this.ended);
    this.stdin.off("close", this.ended);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.lines.clear();
    await this.writer.close();
  }

  private readonly failed = (error: Error) => this.onerror?.(error);
  private readonly ended = () => void this.close();

  private readonly read = (chunk: Buffer | string) =>
    this.lines.append(
      typeof chunk === "string" ? Buffer.from(chunk) : chunk,
      (line) => this.line(line),
      (line) => this.refuse(`a line of stdin (${line.bytes} bytes)`, oversizedLine(line, this.maxBytes)),
    );

  private line(line: string): void {
    if (line.trim() === "") return; // a blank line holds no message, and asks nothing
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line); // the SDK's own rule for what a message is
    } catch (error) {
      return this.refuse(`a line of stdin (${line.length} characters)`, unservedLine(line, error));
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(asError(error));
    }
  }

  /** Answers a line that was not served: to each request id it holds, or once without an id. */
  private refuse(what: string, { error, ids }: UnservedLine): void {
    this.stderr.write(
      `MCP stdio: ${what} was not served, answered ${error.code} ${error.message}` +
        (ids.length > 0 ? ` (request ids ${ids.map((id) => JSON.stringify(id)).join(", ")})\n` : "\n"),
    );
    const answers: JSONRPCMessage[] =
      ids.length > 0 ? ids.map((id) => ({ jsonrpc: "2.0", id, error })) : [{ jsonrpc: "2.0", error }];
    for (const answer of answers) this.send(answer).catch((e: unknown) => this.onerror?.(asError(e)));
  }
}

function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
