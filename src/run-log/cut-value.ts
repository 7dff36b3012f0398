// One value of a record cut to the run log's `maxValueChars`, so that one huge tool argument, result,
// prompt or model text costs its record that many characters instead of the run's whole size limit (which
// would end the file there and lose every later step). The value becomes a string: its first characters
// (of its JSON text, for a value that is not a string), then a note in words, so that a reader that knows
// nothing of cuts (an older viewer, `jq`) still shows that it was cut; the record's `cut` says it for
// readers: each cut field's whole length and how much was kept. Pure: the viewer's page reads it too.
import { toJson } from "./json-text.js";

/** What a record says of one value it holds cut: how long it was, and how much of it the record keeps. */
export interface CutValue {
  /** The value's length in characters (UTF-16 units): a string's own, or its JSON text's. */
  readonly length: number;
  /** The characters kept, at the start of the value's text; the note after them is not counted. */
  readonly kept: number;
}

/** The values of a record that were cut, by field name (`input`; `error.message` for an end's error). */
export type CutValues = Readonly<Record<string, CutValue>>;

/**
 * A record that may hold cut values (`call`, `response`, the header, approvals, restarts, notes, `removed`,
 * `end`).
 */
export interface MayHoldCutValues {
  /** The fields this record holds cut to `maxValueChars`, each with its whole length; absent when none. */
  readonly cut?: CutValues;
}

/**
 * How many of `text`'s first characters a cut to `max` keeps: `max`, one less when that would split a
 * character written as two UTF-16 units (an emoji) in half.
 */
export function keptLength(text: string, max: number): number {
  const last = text.charCodeAt(max - 1);
  return last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
}

/** What a cut value is written as: its first `kept` characters, then a note of how long it was. */
export function cutText(text: string, kept: number): string {
  return `${text.slice(0, kept)}\n[cut: the run log keeps the first ${kept} of ${text.length} characters]`;
}

/**
 * The fields that hold content, by record type (the call's, the response's and the approval asked's are cut
 * by run-log-lines.ts).
 */
const CONTENT: Readonly<Record<string, readonly string[]>> = {
  run: ["prompt", "system"],
  "approval-decided": ["reason"],
  restart: ["reason"],
  note: ["message"],
  removed: ["cause"],
};

/** `record` with each content field longer than `max` characters cut (the same object when none is). */
export function withCutValues<T extends { readonly type: string }>(record: T, max: number): T {
  if (record.type === "end") return endWithCutError(record, max);
  const fields = CONTENT[record.type];
  if (fields === undefined) return record;
  let cut: Record<string, CutValue> | undefined;
  let changed: Record<string, unknown> | undefined;
  for (const field of fields) {
    const value = (record as Record<string, unknown>)[field];
    const text = value === undefined ? undefined : textOf(value);
    if (text === undefined || text.length <= max) continue;
    const kept = keptLength(text, max);
    (cut ??= {})[field] = { length: text.length, kept };
    changed ??= { ...record } as Record<string, unknown>;
    changed[field] = cutText(text, kept);
  }
  return changed ? ({ ...changed, cut } as unknown as T) : record;
}

/** An `end` record's error with its message cut (`cut["error.message"]`). */
function endWithCutError<T>(record: T, max: number): T {
  const error = (record as { error?: { name: string; message?: string } }).error;
  const message = error?.message;
  if (message === undefined || message.length <= max) return record;
  const kept = keptLength(message, max);
  return {
    ...record,
    error: { ...error, message: cutText(message, kept) },
    cut: { "error.message": { length: message.length, kept } },
  };
}

/** A value's text: a string as it is, anything else as JSON (undefined when JSON cannot hold it). */
function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  try {
    return toJson(value);
  } catch {
    return undefined; // a cycle: the record is written as a note saying so (run-log-file.ts)
  }
}

/**
 * What `record` says of its `field` cut (undefined when it was not, or when a line edited by hand says it
 * in another shape): the viewer's "cut: 1,000,000 of 52,428,814 characters kept".
 */
export function cutOf(record: MayHoldCutValues, field: string): CutValue | undefined {
  const cut = record.cut?.[field] as Partial<CutValue> | undefined;
  return typeof cut?.length === "number" && typeof cut.kept === "number" ? (cut as CutValue) : undefined;
}
