import { classTransformer } from "../lazy/class-transformer.js";
import { bigintAsDigits } from "./bigint-as-digits.js";

/** Options of {@link serializeToolResult}. */
export interface SerializeOptions {
  /** Longest text sent to the model; longer results are cut with a note. Default 16 000. */
  readonly maxChars?: number;
}

export const DEFAULT_MAX_RESULT_CHARS = 16_000;
/** What the model sees when a tool returns `undefined` (or nothing). */
export const NO_RESULT_TEXT = "(no result: the tool completed and returned nothing)";
const MAX_DEPTH = 32;

/**
 * The text the model sees for a tool's return value.
 *
 * Strings are sent as they are. Class instances go through class-transformer's `instanceToPlain` (so
 * `@Exclude()` fields such as repositories never leave the process, and only own enumerable fields are
 * read: `#private` and non-enumerable values stay hidden); if class-transformer cannot read one, the
 * call fails rather than sending its raw fields. Everything else is walked here: `Date` as ISO text,
 * `bigint` as a string, `Map` as an object, `Set` as an array, binary data (typed arrays, `ArrayBuffer`,
 * `Buffer`) as a one-line summary, cycles cut, depth bounded.
 *
 * The walk is linear and stops once the text would pass `maxChars`, so a huge value costs no more than
 * the part the model is shown. (class-transformer itself is quadratic in an object's key count, which is
 * why plain data does not go through it.)
 *
 * @throws whatever reading the value throws (a getter, a Proxy trap): the caller reports it.
 */
export function serializeToolResult(value: unknown, options: SerializeOptions = {}): string {
  const max = options.maxChars ?? DEFAULT_MAX_RESULT_CHARS;
  if (value === undefined) return NO_RESULT_TEXT;
  if (typeof value === "string") return cap(value, max, `was ${value.length} characters`);
  const walk = new BoundedWalk(max);
  const text = JSON.stringify(walk.visit(value, 0)) ?? NO_RESULT_TEXT;
  if (walk.stopped) return cap(text, max, `is longer than ${max} characters`);
  return cap(text, max, `was ${text.length} characters`);
}

function cap(text: string, max: number, length: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[truncated: the result ${length}; the first ${max} are shown]`;
}

/** A JSON-ready copy of a value, made in one pass that stops once the character budget is spent. */
class BoundedWalk {
  /** Set once the budget ran out: the rest of the value was not read. */
  stopped = false;
  private spent = 0;
  private readonly ancestors = new Set<object>();

  constructor(private readonly budget: number) {}

  visit(value: unknown, depth: number): unknown {
    if (this.spent > this.budget) {
      this.stopped = true;
      return undefined;
    }
    if (typeof value === "function" || typeof value === "symbol" || value === undefined) return undefined;
    if (typeof value !== "object" || value === null) return this.leaf(bigintAsDigits(value));
    if (value instanceof Date) return this.leaf(Number.isNaN(value.getTime()) ? null : value.toISOString());
    const binary = binarySummary(value);
    if (binary) return this.leaf(binary);
    if (this.ancestors.has(value)) return this.leaf("[circular]");
    if (depth >= MAX_DEPTH) return this.leaf("[too deep]");
    this.ancestors.add(value);
    try {
      if (Array.isArray(value) || value instanceof Set) return this.list(value, depth);
      if (value instanceof Map) return this.entries(value.entries(), depth);
      const proto: unknown = Object.getPrototypeOf(value);
      const plain = proto === Object.prototype || proto === null ? value : classToPlain(value);
      if (plain !== value && (typeof plain !== "object" || plain === null)) return this.visit(plain, depth);
      return this.fields(plain as Record<string, unknown>, depth);
    } finally {
      this.ancestors.delete(value);
    }
  }

  private leaf(value: unknown): unknown {
    this.spent += typeof value === "string" ? value.length + 2 : String(value).length;
    return value;
  }

  private list(items: Iterable<unknown>, depth: number): unknown[] {
    const out: unknown[] = [];
    for (const item of items) {
      if (this.spent > this.budget) {
        this.stopped = true;
        break;
      }
      this.spent += 1;
      out.push(this.visit(item, depth + 1) ?? null);
    }
    return out;
  }

  private entries(entries: Iterable<[unknown, unknown]>, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, item] of entries) if (!this.field(out, String(key), item, depth)) break;
    return out;
  }

  /** A plain object's own enumerable fields, read in place (no list of pairs made first: issue 46). */
  private fields(object: Record<string, unknown>, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(object)) if (!this.field(out, key, object[key], depth)) break;
    return out;
  }

  /** Copies one field into `out`; false once the budget is spent (the field is then left out). */
  private field(out: Record<string, unknown>, name: string, item: unknown, depth: number): boolean {
    if (this.spent > this.budget) {
      this.stopped = true;
      return false;
    }
    this.spent += name.length + 4;
    const copied = this.visit(item, depth + 1);
    // A key named "__proto__" stays an ordinary field of the copy (assigning it would set the prototype).
    if (name === "__proto__")
      Object.defineProperty(out, name, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[name] = copied;
    return true;
  }
}

/** A one-line description of binary data, which the model cannot use byte by byte. */
function binarySummary(value: object): string | undefined {
  if (ArrayBuffer.isView(value)) return `[${value.constructor.name}: ${value.byteLength} bytes]`;
  if (value instanceof ArrayBuffer || value instanceof SharedArrayBuffer)
    return `[${value.constructor.name}: ${value.byteLength} bytes]`;
  return undefined;
}

/** A class instance as class-transformer exposes it (`@Exclude`, `@Expose`, `@Transform` honoured). */
function classToPlain(instance: object): unknown {
  try {
    return classTransformer.get().instanceToPlain(instance, { enableCircularCheck: true });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`class-transformer could not read a ${instance.constructor?.name ?? "value"}: ${why}`, {
      cause: error,
    });
  }
}
