import { instanceToPlain } from "class-transformer";

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
 * Strings are sent as they are; everything else goes through class-transformer's `instanceToPlain`
 * (so `@Exclude()` fields such as repositories never leave the process, and only own enumerable fields are
 * read: `#private` and non-enumerable values stay hidden), then to JSON with `Date` as ISO text, `bigint`
 * as a string, `Map` as an object, `Set` as an array, and cycles cut (class-transformer leaves a repeated
 * reference out; objects it cannot walk get `"[circular]"`).
 */
export function serializeToolResult(value: unknown, options: SerializeOptions = {}): string {
  const max = options.maxChars ?? DEFAULT_MAX_RESULT_CHARS;
  const text = toText(value);
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[truncated: the result was ${text.length} characters; the first ${max} are shown]`;
}

function toText(value: unknown): string {
  if (value === undefined) return NO_RESULT_TEXT;
  if (typeof value === "string") return value;
  const plain = typeof value === "object" && value !== null ? toPlain(value) : value;
  return JSON.stringify(jsonSafe(plain, new Set(), 0)) ?? NO_RESULT_TEXT;
}

function toPlain(value: object): unknown {
  try {
    return instanceToPlain(value, { enableCircularCheck: true });
  } catch {
    // class-transformer cannot walk every exotic object; the JSON pass below still applies our rules.
    return value;
  }
}

/** A copy that `JSON.stringify` accepts: no bigint, Map, Set, cycles or unbounded depth. */
function jsonSafe(value: unknown, ancestors: Set<object>, depth: number): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "function" || typeof value === "symbol") return undefined;
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (ancestors.has(value)) return "[circular]";
  if (depth >= MAX_DEPTH) return "[too deep]";
  ancestors.add(value);
  try {
    if (value instanceof Map) {
      const entries = [...value.entries()].map(([k, v]) => [String(k), jsonSafe(v, ancestors, depth + 1)]);
      return Object.fromEntries(entries);
    }
    if (Array.isArray(value) || value instanceof Set) {
      return [...value].map((v) => jsonSafe(v, ancestors, depth + 1) ?? null);
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      out[key] = jsonSafe((value as Record<string, unknown>)[key], ancestors, depth + 1);
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}
