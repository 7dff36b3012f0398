// The id of the JSON-RPC request a line holds, read as the line streams past without keeping it: a line
// too long to be read is answered to its caller when it is a request. Clients write the id anywhere (the
// SDK clients write it last, after `params`), so every byte is scanned, and what is kept is bounded: the
// nesting depth, and the raw text of the object's own `id` and `method` values (a few bytes, capped).
// Structural bytes of JSON are ASCII and never occur inside a UTF-8 sequence, so bytes are scanned as such.
import type { RequestId } from "@modelcontextprotocol/server";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = [0x7b, 0x5b]; // { [
const CLOSE = [0x7d, 0x5d]; // } ]
const WHITE_SPACE = [0x20, 0x09, 0x0a, 0x0d];
/** The most bytes of a key, or of an `id` or `method` value, kept: longer is no id or method a client sends. */
const KEPT = 1_024;

/** A value being read: its raw bytes (capped), and whether it was longer. */
interface Kept {
  bytes: number[];
  cut: boolean;
}

/** Reads, from the bytes of one line given in order, the `id` of the request it holds. */
export class RequestIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The line is no JSON object (a batch, not JSON): it names no request. */
  private done = false;
  private expectKey = false;
  private key: Kept | undefined;
  private lastKey: string | undefined;
  private value: Kept | undefined;
  private valueOf: "id" | "method" | undefined;
  private id: RequestId | undefined;
  private method = false;

  /** Scans the next bytes of the line. */
  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length && !this.done; i++) {
      if (this.inString && !this.escaped && !this.key && !this.value) {
        // Inside a string no one keeps (a long argument): on to its next quote or backslash.
        const next = nextOf(bytes, i);
        if (next === -1) return;
        i = next;
      }
      this.byte(bytes[i]!);
    }
  }

  /** The request's id: the line is a JSON object with a string `method` and a string or number `id`. */
  requestId(): RequestId | undefined {
    return this.method ? this.id : undefined;
  }

  private byte(b: number): void {
    if (this.inString) {
      this.keep(b);
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        if (this.key) {
          const key = this.key.cut ? undefined : parse(this.key);
          this.lastKey = typeof key === "string" ? key : undefined;
        }
        this.key = undefined;
      }
      return;
    }
    if (WHITE_SPACE.includes(b)) return this.keep(b);
    if (this.depth === 0) {
      // The line's first value: an object opens (its end ends the scan), anything else names no request.
      this.done = b !== OPEN[0];
      this.depth = 1;
      this.expectKey = true;
      return;
    }
    if (this.depth === 1 && this.value && (b === COMMA || b === CLOSE[0])) this.settle();
    if (this.depth === 1 && b === COLON && (this.lastKey === "id" || this.lastKey === "method")) {
      this.value = { bytes: [], cut: false };
      this.valueOf = this.lastKey;
      return;
    }
    if (this.depth === 1 && b === COMMA) this.expectKey = true;
    if (b === QUOTE) {
      this.inString = true;
      if (this.depth === 1 && this.expectKey) {
        this.expectKey = false;
        this.key = { bytes: [], cut: false };
      }
    }
    this.keep(b);
    if (OPEN.includes(b)) this.depth++;
    else if (CLOSE.includes(b) && --this.depth === 0) this.done = true;
  }

  private keep(b: number): void {
    for (const kept of [this.key, this.value])
      if (kept && !kept.cut) {
        if (kept.bytes.length < KEPT) kept.bytes.push(b);
        else kept.cut = true;
      }
  }

  /** The `id` or `method` value read whole: kept when it is of a request's kind. */
  private settle(): void {
    const value = this.value!.cut ? undefined : parse(this.value!);
    if (this.valueOf === "id")
      this.id =
        typeof value === "string" || (typeof value === "number" && Number.isFinite(value))
          ? value
          : undefined;
    else this.method = typeof value === "string";
    this.value = undefined;
  }
}

/** Where the next quote or backslash is, from `from`; -1 when the bytes hold none. */
function nextOf(bytes: Uint8Array, from: number): number {
  const quote = bytes.indexOf(QUOTE, from);
  const backslash = bytes.indexOf(BACKSLASH, from);
  return quote === -1 ? backslash : backslash === -1 ? quote : Math.min(quote, backslash);
}

/** The JSON value of kept bytes, or `undefined` when they are none. */
function parse(kept: Kept): unknown {
  try {
    return JSON.parse(Buffer.from(kept.bytes).toString("utf8"));
  } catch {
    return undefined;
  }
}
