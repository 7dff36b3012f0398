// The list of runs the viewer opens with: one summary per file (from its header and its end record), and
// the runs put together by conversation (a resume or a next turn names the run whose snapshot it goes on
// from, by the id that snapshot carries). Pure: the page runs it.
import type { TokenUsage } from "../events/token-usage.js";
import type { EndRecord, RunLogKind } from "./run-log-format.js";
import type { RunLogRead } from "./read-run-log.js";
import type { RunSoFar } from "./run-tally.js";

/** One run of the list. */
export interface RunSummary {
  /** The file's name in the log's folder. */
  readonly file: string;
  /** The run's id, from its header: what a later run's `continues` names. */
  readonly id?: string;
  readonly kind?: RunLogKind;
  /** ISO 8601; absent when the header could not be read. */
  readonly startedAt?: string;
  /** `open`: no end record (the run is going on, or its process stopped). */
  readonly status: EndRecord["status"] | "open";
  /**
   * For a run with no end record (`open`): true when nothing was written to it for a while (its process
   * stopped, or a call is slow), false while it is being written; absent when not known (an exported page).
   */
  readonly quiet?: boolean;
  /** When the file was last written, in ms since 1970; absent when not known (an exported page). */
  readonly modifiedMs?: number;
  /** Model calls of the run, counting those of what it goes on from (a paused part, earlier turns). */
  readonly totalIterations?: number;
  /**
   * This file's own model calls (`EndRecord.steps`; `totalIterations` for a file written before it); for an
   * `open` run, its steps so far.
   */
  readonly steps?: number;
  /** The run's tokens (so far, for an `open` run). */
  readonly usage?: TokenUsage;
  /** USD, with pricing (so far, for an `open` run). */
  readonly cost?: number;
  /** The id of the run whose snapshot this run goes on from. */
  readonly continues?: string;
  /** The stored conversation the run is a turn of (the caller's `conversationId`), when its header names one. */
  readonly conversationId?: string;
  /** Why the file could not be read (another format version, no header). */
  readonly problem?: string;
}

/** A run in its conversation: turn 1 is the first run, each `continue` starts the next (a resume goes on in one). */
export interface ConversationRun {
  readonly run: RunSummary;
  readonly turn: number;
}

/** The runs of one conversation, first turn first. */
export interface ConversationGroup {
  readonly runs: readonly ConversationRun[];
  /** When its newest run started (groups are listed newest first). */
  readonly latest: string;
  /** The stored conversation's id, as its newest run that names one names it; absent when none does. */
  readonly conversationId?: string;
}

/** What the listing says of a file beside its lines (see `summarizeRun`). */
export interface RunListing {
  /** For a run with no end record: its figures so far, added up from all its lines. */
  readonly soFar?: RunSoFar;
  readonly quiet?: boolean;
  readonly modifiedMs?: number;
}

/**
 * The summary of a file from what was read of it (its first and last lines are enough) and, for a run with
 * no end record, from what its listing added up of its lines.
 */
export function summarizeRun(file: string, read: RunLogRead, listing: RunListing = {}): RunSummary {
  const header = read.header;
  let end: EndRecord | undefined;
  for (let i = read.records.length - 1; i >= 0 && !end; i--) {
    const record = read.records[i]!;
    if (record.type === "end") end = record;
  }
  const problem = header ? undefined : (read.problems[0]?.message ?? "the file has no run header");
  return {
    file,
    ...(header ? { id: header.id, kind: header.kind, startedAt: header.startedAt } : {}),
    status: end?.status ?? "open",
    ...(end
      ? {
          totalIterations: end.totalIterations,
          steps: end.steps ?? end.totalIterations,
          usage: end.usage,
          ...(end.cost === undefined ? {} : { cost: end.cost }),
        }
      : soFar(listing)),
    ...(header?.continues === undefined ? {} : { continues: header.continues }),
    ...(header?.conversationId === undefined ? {} : { conversationId: header.conversationId }),
    ...(problem === undefined ? {} : { problem }),
  };
}

/** An open run's figures so far, and whether it went quiet, as its listing says. */
function soFar({ soFar, quiet, modifiedMs }: RunListing): Partial<RunSummary> {
  return {
    ...(soFar
      ? {
          steps: soFar.steps,
          usage: soFar.usage,
          ...(soFar.cost === undefined ? {} : { cost: soFar.cost }),
        }
      : {}),
    ...(quiet === undefined ? {} : { quiet }),
    ...(modifiedMs === undefined ? {} : { modifiedMs }),
  };
}

/**
 * The runs grouped by conversation, newest group first, each group's turns in order. A run goes on from
 * the earlier run it names (`continues`); a run with nothing to go on from (or whose run is not in the
 * list) starts a conversation of its own.
 */
export function groupConversations(runs: readonly RunSummary[]): ConversationGroup[] {
  const ordered = [...runs].sort(inTime);
  const byId = new Map<string, { root: RunSummary; turn: number }>();
  const groups = new Map<RunSummary, ConversationRun[]>();
  for (const run of ordered) {
    const parent = run.continues === undefined ? undefined : byId.get(run.continues);
    const root = parent?.root ?? run;
    const turn = parent ? parent.turn + (run.kind === "continue" ? 1 : 0) : 1;
    const group = groups.get(root) ?? [];
    group.push({ run, turn });
    groups.set(root, group);
    if (run.id !== undefined) byId.set(run.id, { root, turn });
  }
  return [...groups.values()]
    .map((group) => {
      const id = [...group].reverse().find(({ run }) => run.conversationId !== undefined)?.run.conversationId;
      return {
        runs: group,
        latest: order(group.at(-1)!.run),
        ...(id === undefined ? {} : { conversationId: id }),
      };
    })
    .sort((a, b) => inTime(b.runs.at(-1)!.run, a.runs.at(-1)!.run));
}

/** How runs sort in time: by when they started, else by file name (which starts with the time). */
function order(run: RunSummary): string {
  return run.startedAt ?? run.file;
}

/**
 * Oldest first: by when they started, and runs begun in one millisecond by file name (a process names its
 * runs' files in the order they began: `newRunId`).
 */
function inTime(a: RunSummary, b: RunSummary): number {
  return order(a).localeCompare(order(b)) || a.file.localeCompare(b.file);
}
