// The records every step writes (its `step`, the model's `response`, each `call`), and an approval asked
// (which holds a call's input too), as their JSON text, made directly: the text JSON.stringify makes of the
// record (fields in the order of run-log-format.ts, absent ones left out), without building the record
// first. Building and serializing those objects was about half of what the log cost a step
// (docs/performance.md, "Round 6 (issue 44)"); an approval's input was turned into JSON twice, to measure it
// and to write it. Rarer records stay objects (`jsonText`). A value a caller gave that JSON cannot hold is
// written as a string saying so, and the rest of its record is kept.
import type { ApprovalRequestedEvent } from "../events/approval-events.js";
import type { TokenUsage } from "../events/token-usage.js";
import { describeCause } from "../tools/describe-thrown.js";
import { DEFAULT_MAX_RESULT_CHARS } from "../tools/serialize-result.js";
import { cutText, keptLength } from "./cut-value.js";
import { toJson } from "./json-text.js";

/** A number as JSON writes it (`null` for NaN and the infinities). */
function num(value: number): string {
  return Number.isFinite(value) ? `${value}` : "null";
}

/** A string as JSON (`null` for what is not one, which the types rule out). */
function str(value: string): string {
  return JSON.stringify(value) ?? "null";
}

/**
 * The JSON of names that come back every step (tool names, the model's id), kept per process: a
 * JSON.stringify of a short string costs 70–130 ns and a lookup about 15; it took a step's records from
 * 1.45–1.58 µs to 1.30–1.40 (docs/performance.md). Bounded: a run of 10 000 discovered providers' tools
 * empties it now and then, and pays the stringify again.
 */
const namesAsJson = new Map<string, string>();
const MAX_NAMES = 4096;

function name(value: string): string {
  let json = namesAsJson.get(value);
  if (json === undefined) {
    json = str(value);
    if (namesAsJson.size >= MAX_NAMES) namesAsJson.clear();
    namesAsJson.set(value, json);
  }
  return json;
}

/** {@link toJson}, with what JSON cannot hold written as a string saying why it is not logged. */
function jsonValue(value: unknown): string | undefined {
  try {
    return toJson(value);
  } catch (error) {
    return str(`not logged: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** `,"name":value`, or nothing for a value JSON leaves out. */
function field(name: string, value: unknown): string {
  const text = jsonValue(value);
  return text === undefined ? "" : `,"${name}":${text}`;
}

/**
 * The members of the `cut` of the line being made (`"input":{"length":…,"kept":…}`), empty when none: one
 * line is made at a time (synchronously), and each starts it empty. Not an object per line: most have none.
 */
let cuts = "";

/**
 * `,"name":"text"`; a text longer than `max` characters written cut (cut-value.ts), its entry added to
 * {@link cuts}. `json`: what to write for a text within the limit when it is not `str(text)` (a value's JSON
 * text, written as it is; cut, it is written as a string). Only a length is checked for a text within the
 * limit, which every normal one is.
 */
function kept(name: string, text: string, max: number, json?: string): string {
  if (text.length <= max) return `,"${name}":${json ?? str(text)}`;
  const length = keptLength(text, max);
  cuts += `${cuts === "" ? "" : ","}"${name}":{"length":${text.length},"kept":${length}}`;
  return `,"${name}":${str(cutText(text, length))}`;
}

/** `,"cut":{…}` for the values cut in the line being made, or nothing. */
function cutMember(): string {
  if (cuts === "") return "";
  const member = `,"cut":{${cuts}}`;
  cuts = ""; // read out: no later line holds this one's entries
  return member;
}

/** A step whose tool set is the step before's: `{"type":"step",…}` without `tools`, `added` or `removed`. */
export function stepLine(step: number, iteration: number, ms: number, count: number): string {
  return `{"type":"step","step":${step},"iteration":${num(iteration)},"ms":${ms},"count":${count}}`;
}

/** What a `response` record holds. */
export interface ResponseLine {
  readonly step: number;
  readonly ms: number;
  readonly durationMs: number;
  readonly modelId: string | undefined;
  readonly responseModelId: string | undefined;
  readonly usage: TokenUsage;
  /** USD, or `"unknown"` (no usage reported); undefined without pricing. */
  readonly cost: number | "unknown" | undefined;
  /** Undefined without recorded content. */
  readonly text: string | undefined;
  readonly calls: readonly { readonly toolName: string }[];
  /** The longest text written whole (`maxValueChars`): a longer one is cut. */
  readonly maxChars: number;
}

/** A `response` record's line. */
export function responseLine(r: ResponseLine): string {
  let line = `{"type":"response","step":${r.step},"ms":${r.ms},"durationMs":${num(Math.round(r.durationMs))}`;
  if (r.modelId !== undefined) line += `,"modelId":${name(r.modelId)}`;
  if (r.responseModelId !== undefined) line += `,"responseModelId":${name(r.responseModelId)}`;
  const u = r.usage;
  line += `,"usage":{"inputTokens":${num(u.inputTokens)},"outputTokens":${num(u.outputTokens)},"cachedInputTokens":${num(u.cachedInputTokens)},"reasoningTokens":${num(u.reasoningTokens)}`;
  if (u.cacheWriteInputTokens !== undefined)
    line += `,"cacheWriteInputTokens":${num(u.cacheWriteInputTokens)}`;
  line += "}";
  if (r.cost === "unknown") line += ',"costUnknown":true';
  else if (r.cost !== undefined) line += `,"cost":${num(r.cost)}`;
  cuts = "";
  if (r.text !== undefined) line += r.text === "" ? ',"text":""' : kept("text", r.text, r.maxChars);
  line += ',"calls":[';
  for (let i = 0; i < r.calls.length; i++)
    line += `${i === 0 ? "" : ","}{"tool":${name(r.calls[i]!.toolName)}}`;
  return `${line}]${cutMember()}}`;
}

/** What a `call` record holds (an undefined field is left out). */
export interface CallLine {
  readonly step: number;
  readonly ms: number;
  readonly id: string;
  readonly tool: string;
  readonly ok: boolean;
  /** A call that ended with a result: how long it ran. */
  readonly durationMs: number | undefined;
  /** A failed call's reason. */
  readonly reason: string | undefined;
  /** Whether the input and the result are written. */
  readonly content: boolean;
  readonly input: unknown;
  readonly result: string | undefined;
  /** What a failed call's server threw (`ToolFailedEvent.cause`): its `cause`, written with the contents only. */
  readonly cause: unknown;
  readonly media: readonly unknown[] | undefined;
  readonly provider: unknown;
  /** The longest input, result or cause written whole (`maxValueChars`): a longer one is cut. */
  readonly maxChars: number;
}

/**
 * `,"input":…`: a call's input as its JSON text, made once and cut as text, not as the object (nothing
 * for an input JSON leaves out). The one rule of a `call`'s input and an `approval-asked`'s.
 */
function inputMember(input: unknown, max: number): string {
  const json = jsonValue(input);
  return json === undefined ? "" : kept("input", json, max, json);
}

/** A `call` record's line. */
export function callLine(c: CallLine): string {
  let line = `{"type":"call","step":${c.step},"ms":${c.ms},"id":${str(c.id)},"tool":${name(c.tool)},"ok":${c.ok}`;
  if (c.durationMs !== undefined) line += `,"durationMs":${num(Math.round(c.durationMs))}`;
  if (c.reason !== undefined) line += `,"reason":${str(c.reason)}`;
  cuts = "";
  if (c.content) {
    line += inputMember(c.input, c.maxChars);
    if (c.result !== undefined) line += kept("result", c.result, c.maxChars);
    if (c.cause !== undefined)
      line += kept("cause", describeCause(c.cause, DEFAULT_MAX_RESULT_CHARS), c.maxChars);
  }
  if (c.media !== undefined && c.media.length > 0) line += field("media", c.media);
  if (c.provider !== undefined) line += field("provider", c.provider);
  return `${line}${cutMember()}}`;
}

/**
 * An `approval-asked` record's line, at `step`: the input with recorded `content` only, cut past `maxChars`
 * (`maxValueChars`).
 */
export function approvalAskedLine(
  event: ApprovalRequestedEvent,
  step: number,
  content: boolean,
  maxChars: number,
): string {
  let line = `{"type":"approval-asked","step":${step},"id":${str(event.approvalId)},"tool":${name(event.toolName)}`;
  cuts = "";
  if (content) line += inputMember(event.input, maxChars);
  if (event.provider !== undefined) line += field("provider", event.provider);
  return `${line}${cutMember()}}`;
}

/** The same names in the same order (the registry hands out one frozen list until its tools change). */
export function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((name, i) => name === b[i]));
}

/** A step record's change against the step before: the tools `added` and `removed` (each only when some). */
export function toolSetChange(
  previous: readonly string[],
  names: readonly string[],
): { readonly added?: readonly string[]; readonly removed?: readonly string[] } {
  const before = new Set(previous);
  const now = new Set(names);
  const added = names.filter((n) => !before.has(n));
  const removed = previous.filter((n) => !now.has(n));
  return { ...(added.length > 0 ? { added } : {}), ...(removed.length > 0 ? { removed } : {}) };
}
