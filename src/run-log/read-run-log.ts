// Reads a run log's text into its records, keeping what it can: a line that is not JSON, not a record this
// version knows, or cut short by a crash is skipped and named (its line number and why), never a throw. A
// file of another format version is skipped whole, and says so. Pure: the viewer's page runs it too.
import {
  RUN_LOG_FORMAT,
  RUN_LOG_VERSION,
  type RunHeaderRecord,
  type RunLogRecord,
} from "./run-log-format.js";
import { isUnreadRest, unreadNote } from "./unread-line.js";

/** A line (or a whole file) the reader skipped, and why. */
export interface RunLogProblem {
  /** The line, from 1; absent when the whole file was skipped. */
  readonly line?: number;
  /** What was skipped and why, in words (`line 4 is not JSON: skipped`). */
  readonly message: string;
}

/** What {@link readRunLog} found in one file. */
export interface RunLogRead {
  /** Line 1, when it is a run header of this format version. */
  readonly header?: RunHeaderRecord;
  /** Every other record, in file order. */
  readonly records: readonly RunLogRecord[];
  /** The lines (or the whole file) skipped, in file order; empty when every line was read. */
  readonly problems: readonly RunLogProblem[];
}

/** The record types of format version 1, and the field each must have as a number (`step`, `ms`). */
const NUMBERED: Readonly<Record<string, "step" | "ms">> = {
  step: "step",
  response: "step",
  call: "step",
  discovered: "step",
  added: "step",
  removed: "step",
  restart: "step",
  expanded: "step",
  "approval-asked": "step",
  "approval-decided": "step",
  note: "step",
  cut: "step",
  costs: "step",
  end: "ms",
};

/** The shape a field of a record must have (in the table below, a `!` after it: the view needs it there). */
export type Shape = "string" | "number" | "boolean" | "object" | "objects" | "names" | "usage";

/**
 * The fields of each record type that the view and the page read, and their shapes (the JSON Schema's, in
 * docs/run-log.schema.json; a test holds them together): a record whose field has another shape (a line
 * edited by hand, or written by something else) is skipped and named, rather than failing the run's view.
 */
export const SHAPES: Readonly<Record<string, Readonly<Record<string, `${Shape}${"" | "!"}`>>>> = {
  step: { tools: "names", added: "names", removed: "names" },
  response: {
    usage: "usage!",
    calls: "objects",
    cost: "number",
    costUnknown: "boolean",
    text: "string",
    modelId: "string",
    responseModelId: "string",
    cut: "object",
  },
  call: {
    id: "string",
    tool: "string",
    ok: "boolean",
    reason: "string",
    result: "string",
    cause: "string",
    media: "objects",
    provider: "object",
    cut: "object",
  },
  discovered: { provider: "object!", tools: "names!", by: "string", handle: "string" },
  added: { tools: "names!", byTool: "string", by: "string" },
  removed: { tools: "names!", by: "string", cause: "string" },
  restart: { reason: "string", sections: "names", tools: "names", cut: "object" },
  expanded: { section: "string", tools: "names" },
  "approval-asked": { id: "string", tool: "string", provider: "object", cut: "object" },
  "approval-decided": { id: "string", tool: "string", approved: "boolean", reason: "string", cut: "object" },
  note: { message: "string", cut: "object" },
  cut: { note: "string" },
  costs: { perProvider: "objects!" },
  end: { usage: "usage!", cost: "number", costUnknown: "boolean", error: "object", cut: "object" },
};

/**
 * The records of a run log's text (a whole file, or what has been written of it so far). A last line
 * without its newline is read when it is whole JSON (a file someone cut after it), else reported as cut short.
 */
export function readRunLog(text: string): RunLogRead {
  const log = new GrowingRunLog();
  log.append(text);
  return log.read();
}

/**
 * A run log read as it grows (a run still going, read again at each change): each whole line is read once,
 * and kept; a last line without its newline yet is read with the rest by {@link GrowingRunLog.read}, and not kept: it
 * comes again, longer or whole, at the start of the next piece.
 */
export class GrowingRunLog {
  private readonly whole = reading();
  private partial = "";

  /**
   * Reads `text`, what the file holds from the end of the last whole line read before: whole lines, then
   * perhaps the start of a line still being written (the last piece's unfinished line comes again in it).
   */
  append(text: string): void {
    let start = 0;
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
      readLine(this.whole, text.slice(start, newline), false);
      start = newline + 1;
    }
    this.partial = text.slice(start);
  }

  /**
   * Whether the last piece ended where the viewer's server stopped a read that could not hold the rest of
   * the file (a file larger than one read): the next piece, from the same offset, goes on with it.
   */
  readsOn(): boolean {
    return isUnreadRest(this.partial.trim());
  }

  /** What the file holds so far, as {@link readRunLog} reads it whole. */
  read(): RunLogRead {
    let read = this.whole;
    if (this.partial.trim() !== "") {
      // The unfinished line is read after the whole ones, into a copy: the whole lines' reading stays as it was.
      const last: Reading = { ...read, records: [], problems: [] };
      readLine(last, this.partial, true);
      read = {
        ...last,
        records: [...read.records, ...last.records],
        problems: [...read.problems, ...last.problems],
      };
    }
    if (read.skipped) return { records: [], problems: [read.skipped] };
    return {
      ...(read.header ? { header: read.header } : {}),
      records: [...read.records],
      problems: [...read.problems],
    };
  }
}

/** What has been read of a file: where the next line is read from. */
interface Reading {
  header?: RunHeaderRecord;
  readonly records: RunLogRecord[];
  readonly problems: RunLogProblem[];
  /** The lines read, blank ones included (the next one is `lines + 1`). */
  lines: number;
  /** Whether a line that is not blank was read (the first one is the header). */
  started: boolean;
  /** Why the whole file is skipped (a header of another format or version): no line after it is read. */
  skipped?: RunLogProblem;
}

function reading(): Reading {
  return { records: [], problems: [], lines: 0, started: false };
}

/** Reads the next line (without its newline; `last`: the file's last, with no newline after it yet). */
function readLine(into: Reading, text: string, last: boolean): void {
  const line = ++into.lines;
  const raw = text.trim();
  if (raw === "" || into.skipped) return;
  // What the viewer's server could not send stands in for it (unread-line.ts): named, not parsed.
  const unread = unreadNote(raw, line, last);
  if (unread !== undefined) {
    into.started = true; // a header skipped this way is not looked for in the next line
    into.problems.push({ ...(unread.startsWith("line ") ? { line } : {}), message: unread });
    return;
  }
  const isFirst = !into.started;
  into.started = true;
  const parsed = parseLine(raw);
  if (parsed === undefined) {
    const why = last ? "is cut short (the process stopped while writing it)" : "is not JSON";
    into.problems.push({ line, message: `line ${line} ${why}: skipped` });
    return;
  }
  if (isFirst) {
    const problem = headerProblem(parsed);
    if (problem === undefined) {
      into.header = parsed as RunHeaderRecord;
      return;
    }
    // A header of another format or version: nothing in the file means what this version reads.
    if ((parsed as { type?: unknown }).type === "run") {
      into.skipped = { message: problem };
      return;
    }
    into.problems.push({ line, message: `line ${line}: ${problem}` });
  }
  const problem = recordProblem(parsed);
  if (problem === undefined) into.records.push(withIdentities(parsed as RunLogRecord));
  else into.problems.push({ line, message: `line ${line}: ${problem}: skipped` });
}

function parseLine(raw: string): unknown {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Why `value` is not the header of a file this version reads (undefined: it is). */
function headerProblem(value: unknown): string | undefined {
  const { type, format, version } = value as { type?: unknown; format?: unknown; version?: unknown };
  if (type !== "run") return "the file does not start with a run header";
  if (format !== RUN_LOG_FORMAT)
    return `the file is not a run log (format ${JSON.stringify(format)}): skipped`;
  if (version !== RUN_LOG_VERSION)
    return `the file is run log format version ${JSON.stringify(version)}; this viewer reads version ${RUN_LOG_VERSION}: skipped`;
  return undefined;
}

/**
 * Why `value` (a parsed line, an object) is not a record of this version that the view can read, its
 * fields of the shapes {@link SHAPES} gives (undefined: it is). The one rule: what the reader skips, the
 * run list's figures so far (run-tally.ts) skip too.
 */
export function recordProblem(value: unknown): string | undefined {
  const { type } = value as { type?: unknown };
  if (typeof type !== "string" || !Object.hasOwn(NUMBERED, type))
    return `unknown record type ${JSON.stringify(type)}`;
  const field = NUMBERED[type]!;
  const number = (value as Record<string, unknown>)[field];
  if (typeof number !== "number" || !Number.isFinite(number))
    return `${aRecord(type)} without a numeric ${field}`;
  for (const [name, shape] of Object.entries(SHAPES[type] ?? {})) {
    const found = (value as Record<string, unknown>)[name];
    if (found === undefined ? shape.endsWith("!") : !fits(found, shape.replace("!", "") as Shape))
      return `${aRecord(type)} ${found === undefined ? "without" : "with another shape of"} its ${name}`;
  }
  if (type === "costs" && !(value as { perProvider: object[] }).perProvider.every(isProviderCost))
    return `${aRecord(type)} with another shape of its perProvider`;
  return undefined;
}

/** `a step record`, `an end record`. */
function aRecord(type: string): string {
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type} record`;
}

function fits(value: unknown, shape: Shape): boolean {
  const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  if (shape === "object") return isObject(value);
  if (shape === "usage") {
    if (!isObject(value)) return false;
    const tokens = value as Record<string, unknown>;
    const counts = (f: string) => typeof tokens[f] === "number" && Number.isFinite(tokens[f]);
    // Input and output always; the cached and reasoning counts when given (a string would be added as text).
    return (
      ["inputTokens", "outputTokens"].every(counts) &&
      ["cachedInputTokens", "reasoningTokens"].every((f) => tokens[f] === undefined || counts(f))
    );
  }
  if (shape === "objects") return Array.isArray(value) && value.every(isObject);
  if (shape === "names") return Array.isArray(value) && value.every((t) => typeof t === "string");
  return typeof value === shape && (shape !== "number" || Number.isFinite(value));
}

/** A `perProvider` item the view shows: the fields every version wrote (`identity` came later). */
function isProviderCost(item: object): boolean {
  const cost = item as Record<string, unknown>;
  return (
    typeof cost["providerClass"] === "string" &&
    ["cost", "calls", "definitionTokens", "resultTokens"].every((f) => typeof cost[f] === "number") &&
    (cost["identity"] === undefined || (typeof cost["identity"] === "object" && cost["identity"] !== null))
  );
}

/**
 * A costs record whose items have their `identity`: a file written before it was (format version 1 too)
 * has the class and the id as text (`instanceId`), from which it is made.
 */
function withIdentities(record: RunLogRecord): RunLogRecord {
  if (record.type !== "costs" || record.perProvider.every((p) => p.identity !== undefined)) return record;
  const perProvider = record.perProvider.map((p) =>
    p.identity !== undefined
      ? p
      : {
          ...p,
          identity: { providerClass: p.providerClass, id: String(p.instanceId), idType: "string" as const },
        },
  );
  return { ...record, perProvider };
}
