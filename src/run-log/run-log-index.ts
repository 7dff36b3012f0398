// The list of runs the viewer opens with: one summary per file (from its header and its end record), and
// the runs put together by conversation (by the stored conversation's id a turn's header names, else by
// the run whose snapshot it goes on from, which a resume or a next turn names). Pure: the page runs it.
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
  /** USD, with pricing (so far, for an `open` run): what the calls of known cost cost. */
  readonly cost?: number;
  /** With pricing: a call's cost is unknown (its provider reported no usage), so `cost` leaves it out. */
  readonly costUnknown?: true;
  /** The id of the run whose snapshot this run goes on from. */
  readonly continues?: string;
  /** The stored conversation the run is a turn of (the caller's `conversationId`), when its header names one. */
  readonly conversationId?: string;
  /** Why the file could not be read (another format version, no header). */
  readonly problem?: string;
}

/**
 * A run in its conversation: turn 1 is the first run, each `continue` (or another run of the conversation)
 * starts the next; a resume goes on in one.
 */
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
  /**
   * USD, with pricing: the sum of its runs' own cost (each file's, so each model call counted once; a later
   * turn's result `cost.total` would count the earlier turns again); absent when no run has one.
   */
  readonly cost?: number;
  /** With pricing: a run's cost is partly unknown (`RunSummary.costUnknown`), so `cost` leaves that out. */
  readonly costUnknown?: true;
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
          ...(end.costUnknown ? { costUnknown: true as const } : {}),
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
          ...(soFar.costUnknown ? { costUnknown: true as const } : {}),
        }
      : {}),
    ...(quiet === undefined ? {} : { quiet }),
    ...(modifiedMs === undefined ? {} : { modifiedMs }),
  };
}

/**
 * The runs grouped by conversation, newest group first, each group's turns in order. A run whose header
 * names a stored conversation (`conversationId`) is in that conversation's group, whichever process served
 * it and whether or not the run it goes on from is in the list, and never in another's. A run that names
 * none (a file written before the header had it, or runs never given one) goes on from the earlier run it
 * names (`continues`), in that run's group; one with nothing to go on from in the list starts a group of
 * its own. A group of such runs that exactly one named conversation goes on from is that conversation's
 * start (its earlier turns, written before it was named); one that several go on from stays on its own.
 */
export function groupConversations(runs: readonly RunSummary[]): ConversationGroup[] {
  const ordered = [...runs].sort(inTime);
  const { parentOf, keyOf } = conversationKeys(ordered);
  const groups = new Map<string, ConversationRun[]>();
  const turnOf = new Map<RunSummary, number>();
  for (const run of ordered) {
    const key = keyOf(run);
    const group = groups.get(key) ?? [];
    const parent = parentOf.get(run);
    // The turn it goes on from: the run it names when in its group, else the group's latest (a turn whose
    // run is not in the list, or was served where no log was kept).
    const before = parent && keyOf(parent) === key ? parent : group.at(-1)?.run;
    const turn = before ? turnOf.get(before)! + (run.kind === "resume" ? 0 : 1) : 1;
    turnOf.set(run, turn);
    group.push({ run, turn });
    groups.set(key, group);
  }
  return [...groups.values()]
    .map((group) => {
      const id = [...group].reverse().find(({ run }) => run.conversationId !== undefined)?.run.conversationId;
      const priced = group.filter(({ run }) => run.cost !== undefined);
      return {
        runs: group,
        latest: order(group.at(-1)!.run),
        ...(id === undefined ? {} : { conversationId: id }),
        ...(priced.length === 0 ? {} : { cost: priced.reduce((sum, { run }) => sum + run.cost!, 0) }),
        ...(priced.some(({ run }) => run.costUnknown) ? { costUnknown: true as const } : {}),
      };
    })
    .sort((a, b) => inTime(b.runs.at(-1)!.run, a.runs.at(-1)!.run));
}

/**
 * Each run's conversation key (see `groupConversations`) and the earlier run of the list it goes on from.
 * `ordered` is oldest first, so a run's parent has its key before it.
 */
function conversationKeys(ordered: readonly RunSummary[]): {
  parentOf: Map<RunSummary, RunSummary>;
  keyOf: (run: RunSummary) => string;
} {
  const parentOf = new Map<RunSummary, RunSummary>();
  const chainKey = new Map<RunSummary, string>();
  const byId = new Map<string, RunSummary>();
  /** For a chain of runs that name no conversation: the conversations that go on from it. */
  const namedAfter = new Map<string, Set<string>>();
  for (const run of ordered) {
    const parent = run.continues === undefined ? undefined : byId.get(run.continues);
    if (parent) parentOf.set(run, parent);
    const from = parent && chainKey.get(parent)!;
    const named = run.conversationId !== undefined;
    if (named && from?.startsWith("file:"))
      namedAfter.set(from, (namedAfter.get(from) ?? new Set()).add(run.conversationId!));
    chainKey.set(run, named ? `id:${run.conversationId!}` : (from ?? `file:${run.file}`));
    if (run.id !== undefined) byId.set(run.id, run);
  }
  const keyOf = (run: RunSummary) => {
    const key = chainKey.get(run)!;
    const named = namedAfter.get(key);
    return named?.size === 1 ? `id:${[...named][0]!}` : key;
  };
  return { parentOf, keyOf };
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
