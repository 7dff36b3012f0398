// Reads a run log's text into its records, keeping what it can: a line that is not JSON, not a record this
// version knows, or cut short by a crash is skipped and named (its line number and why), never a throw. A
// file of another format version is skipped whole, and says so. Pure: the viewer's page runs it too.
import {
  RUN_LOG_FORMAT,
  RUN_LOG_VERSION,
  type RunHeaderRecord,
  type RunLogRecord,
} from "./run-log-format.js";

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

/**
 * The records of a run log's text (a whole file, or what has been written of it so far). A last line
 * without its newline is read when it is whole JSON (a file someone cut after it), else reported as cut short.
 */
export function readRunLog(text: string): RunLogRead {
  const problems: RunLogProblem[] = [];
  const records: RunLogRecord[] = [];
  let header: RunHeaderRecord | undefined;
  let first = true;
  let start = 0;
  for (let line = 1; start < text.length; line++) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const raw = text.slice(start, end).trim();
    start = end + 1;
    if (raw === "") continue;
    const isFirst = first;
    first = false;
    const parsed = parseLine(raw);
    if (parsed === undefined) {
      const why = newline === -1 ? "is cut short (the process stopped while writing it)" : "is not JSON";
      problems.push({ line, message: `line ${line} ${why}: skipped` });
      continue;
    }
    if (isFirst) {
      const problem = headerProblem(parsed);
      if (problem === undefined) {
        header = parsed as RunHeaderRecord;
        continue;
      }
      // A header of another format or version: nothing in the file means what this version reads.
      if ((parsed as { type?: unknown }).type === "run")
        return { records: [], problems: [{ message: problem }] };
      problems.push({ line, message: `line ${line}: ${problem}` });
    }
    const problem = recordProblem(parsed);
    if (problem === undefined) records.push(parsed as RunLogRecord);
    else problems.push({ line, message: `line ${line}: ${problem}: skipped` });
  }
  return { ...(header ? { header } : {}), records, problems };
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

/** Why `value` is not a record of this version (undefined: it is). */
function recordProblem(value: unknown): string | undefined {
  const { type } = value as { type?: unknown };
  if (typeof type !== "string" || !Object.hasOwn(NUMBERED, type))
    return `unknown record type ${JSON.stringify(type)}`;
  const field = NUMBERED[type]!;
  const number = (value as Record<string, unknown>)[field];
  if (typeof number !== "number" || !Number.isFinite(number))
    return `a ${type} record without a numeric ${field}`;
  const list = (value as { tools?: unknown }).tools;
  if (list !== undefined && !(Array.isArray(list) && list.every((t) => typeof t === "string")))
    return `a ${type} record whose tools are not a list of names`;
  return undefined;
}
