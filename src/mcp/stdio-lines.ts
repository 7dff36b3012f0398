// The lines of an MCP stdio stream, each at most a limit long. A line past the limit is not kept: it is
// scanned for its request's id as it streams past (`RequestIdScanner`), counted and dropped up to its line
// feed, and the lines after it are read as usual. So memory stays within the limit whatever a client
// sends, and one line too long costs the client that one message, not the connection (the SDK's
// `ReadBuffer` closes it). Parts are joined once per line, not once per chunk.
import type { RequestId } from "@modelcontextprotocol/server";
import { RequestIdScanner } from "./request-id-scanner.js";

/** A line past the limit: how long it was, and the id of the request it held, if it was one. */
export interface OversizedLine {
  readonly bytes: number;
  readonly id: RequestId | undefined;
}

/** Splits chunks of a stdio stream into lines (without `\n` or `\r\n`), each at most `maxBytes` long. */
export class StdioLines {
  private parts: Buffer[] = [];
  private length = 0;
  /** The line being dropped, past the limit: its length so far, and what it says of its id. */
  private dropping: { bytes: number; scanner: RequestIdScanner } | undefined;

  constructor(private readonly maxBytes: number) {}

  /** Reads a chunk: `line` for each whole line in it, `oversized` for each line past the limit that ends in it. */
  append(chunk: Buffer, line: (text: string) => void, oversized: (line: OversizedLine) => void): void {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      this.take(chunk.subarray(start, end));
      start = end + 1;
      const dropped = this.dropping;
      if (dropped) oversized({ bytes: dropped.bytes, id: dropped.scanner.requestId() });
      else line(Buffer.concat(this.parts, this.length).toString("utf8").replace(/\r$/, ""));
      this.clear();
    }
    this.take(chunk.subarray(start));
  }

  /** Forgets the line not ended yet. */
  clear(): void {
    this.parts = [];
    this.length = 0;
    this.dropping = undefined;
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.dropping) {
      this.dropping.bytes += part.length;
      this.dropping.scanner.feed(part);
      return;
    }
    if (this.length + part.length <= this.maxBytes) {
      this.parts.push(part);
      this.length += part.length;
      return;
    }
    const scanner = new RequestIdScanner();
    for (const kept of [...this.parts, part]) scanner.feed(kept);
    this.dropping = { bytes: this.length + part.length, scanner };
    this.parts = [];
    this.length = 0;
  }
}
