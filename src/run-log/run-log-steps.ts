// A run log's records as the viewer shows them: steps, each with its tool set's change against the step
// before and the cause of every change (the call whose result added a tool and the provider it found; why a
// tool went: the budget, a strategy, a source, a restart), its calls, approvals and notes, its cache share,
// and what broke the prompt cache where the tool list changed. Pure: the page runs it.
import type { ProviderIdentity } from "../tools/provider-identity.js";
import type {
  CallRecord,
  CostsRecord,
  DiscoveredRecord,
  EndRecord,
  ResponseRecord,
  RunHeaderRecord,
  RunLogRecord,
  StepRecord,
} from "./run-log-format.js";
import type { RunLogProblem, RunLogRead } from "./read-run-log.js";
import { addResponse } from "./run-log-step-response.js";

/** Why a tool joined or left the set offered at a step. */
export interface ToolChangeCause {
  /**
   * `budget`, `strategy`, `source` (an MCP server dropped it), `restart` or `unrestored` (its provider could
   * not be restored as the run went on from its snapshot), for a tool that left.
   */
  readonly reason?: "budget" | "strategy" | "source" | "restart" | "unrestored";
  /** The tool whose result caused it (or a source's label). */
  readonly byTool?: string;
  /** That call's id, */
  readonly by?: string;
  /** and the step it was made at. */
  readonly byStep?: number;
  /** The provider the result returned, for a discovered provider's tool. */
  readonly provider?: ProviderIdentity;
}

/** One tool that joined or left, with its cause when the log names one. */
export interface ToolChange {
  /** The tool's name. */
  readonly tool: string;
  /** Why it joined or left; absent when the log does not say (a damaged line, an earlier file). */
  readonly cause?: ToolChangeCause;
}

/** One step as the viewer shows it (step 0 holds what came before the first model call of a resumed run). */
export interface StepView {
  /** The step's number in the file, from 1 (0: before the first model call). */
  readonly step: number;
  /** The step's own `step` record (the tools offered); absent for step 0. */
  readonly record?: StepRecord;
  /** Tools offered now and not at the step before; undefined where a damaged line hides the change. */
  readonly added?: readonly ToolChange[];
  /** Tools offered at the step before and not now; undefined where a damaged line hides the change. */
  readonly removed?: readonly ToolChange[];
  /**
   * The model's answer at this step; absent when none was logged (step 0, a run that failed or was cut).
   * Its tokens and cost are the whole step's, `otherModels`' included; its `modelId` is the step's model.
   */
  readonly response?: ResponseRecord;
  /**
   * Responses of other models than the step's, each with its own tokens and cost: a conversation backend's
   * calls of a subagent or helper model during the turn that ended at this step. Absent when none.
   */
  readonly otherModels?: readonly ResponseRecord[];
  /** The step's tool calls that ended, in the order they ended. */
  readonly calls: CallRecord[];
  /** The providers the step's calls returned, in order. */
  readonly discovered: DiscoveredRecord[];
  /** Everything else of the step, in order: approvals, restarts, expansions, tool-set records, notes. */
  readonly other: RunLogRecord[];
  /** The share of the step's input tokens read from the provider's prompt cache (0..1), when it reported input. */
  readonly cacheShare?: number;
}

/** A run log read for viewing. */
export interface RunView {
  /** The run's header (line 1); absent when it could not be read. */
  readonly header?: RunHeaderRecord;
  /** The run's steps in order (step 0 only when something happened before the first model call). */
  readonly steps: readonly StepView[];
  /** How the run ended; absent while it runs, or when its process stopped before the end. */
  readonly end?: EndRecord;
  /** With pricing: what each discovered provider added to the cost. */
  readonly costs?: CostsRecord;
  /** True when the file reached its size limit. */
  readonly cut: boolean;
  /** The lines the reader skipped, and why. */
  readonly problems: readonly RunLogProblem[];
  /** Every tool offered at `step`; undefined when a damaged line hides it. */
  toolsAt(step: number): readonly string[] | undefined;
}

interface Building {
  step: number;
  record?: StepRecord;
  added?: ToolChange[];
  removed?: ToolChange[];
  response?: ResponseRecord;
  otherModels?: ResponseRecord[];
  calls: CallRecord[];
  discovered: DiscoveredRecord[];
  other: RunLogRecord[];
  cacheShare?: number;
}

/** The steps of a run log's records, each with its tool-set change and the causes. */
export function runView(read: RunLogRead): RunView {
  const steps: Building[] = [emptyStep(0)];
  const stepRecords = stepIndex();
  const added = new Map<string, ToolChangeCause>(); // why each tool joined, latest first
  const leaving = new Map<string, ToolChangeCause>(); // why tools left since the step before
  const callTool = new Map<string, string>(); // each call's tool, by the call's id
  let restarted = false;
  let current: Set<string> | undefined;
  let lastStep = 0;
  let end: EndRecord | undefined;
  let costs: CostsRecord | undefined;
  let cut = false;
  let at = steps[0]!;
  for (const record of read.records) {
    switch (record.type) {
      case "step": {
        // A lost step line leaves the set unknown until the next whole list.
        const known = current !== undefined && record.step === lastStep + 1;
        const diff = stepDiff(known ? current : undefined, record);
        current = diff.now;
        lastStep = record.step;
        at = emptyStep(record.step);
        at.record = record;
        stepRecords.add(record);
        if (diff.added && diff.removed) {
          at.added = diff.added.map((tool) => change(tool, added.get(tool)));
          at.removed = diff.removed.map((tool) =>
            change(tool, leaving.get(tool) ?? (restarted ? { reason: "restart" } : undefined)),
          );
        }
        leaving.clear();
        restarted = false;
        steps.push(at);
        break;
      }
      case "response": {
        const response = addResponse(at, record);
        if (response.usage.inputTokens > 0)
          at.cacheShare = response.usage.cachedInputTokens / response.usage.inputTokens;
        break;
      }
      case "call":
        callTool.set(record.id, record.tool);
        at.calls.push(record);
        break;
      case "discovered":
        at.discovered.push(record);
        for (const tool of record.tools)
          added.set(tool, { ...added.get(tool), provider: record.provider, ...causeBy(record.by, at.step) });
        break;
      case "added":
        at.other.push(record);
        for (const tool of record.tools)
          added.set(tool, { ...added.get(tool), byTool: record.byTool, ...causeBy(record.by, at.step) });
        break;
      case "removed":
        at.other.push(record);
        for (const tool of record.tools)
          leaving.set(tool, { reason: record.reason, ...causeBy(record.by, at.step) });
        break;
      case "restart":
        restarted = true;
        at.other.push(record);
        break;
      case "end":
        end = record;
        break;
      case "costs":
        costs = record;
        break;
      case "cut":
        cut = true;
        at.other.push(record);
        break;
      default:
        at.other.push(record);
    }
  }
  // A call's own record comes after what its result caused: name the call's tool now that all are read.
  for (const step of steps)
    for (const list of [step.added, step.removed])
      for (const item of list ?? []) fillCallTool(item, callTool);
  const shown = steps[0]!.calls.length + steps[0]!.other.length > 0 ? steps : steps.slice(1);
  return {
    ...(read.header ? { header: read.header } : {}),
    steps: shown,
    ...(end ? { end } : {}),
    ...(costs ? { costs } : {}),
    cut,
    problems: read.problems,
    toolsAt: (step) => toolsAt(stepRecords, step),
  };
}

function emptyStep(step: number): Building {
  return { step, calls: [], discovered: [], other: [] };
}

function change(tool: string, cause: ToolChangeCause | undefined): ToolChange {
  return cause ? { tool, cause } : { tool };
}

function causeBy(by: string | undefined, step: number): Partial<ToolChangeCause> {
  return by === undefined ? {} : { by, byStep: step };
}

/** Names the tool of the call behind a change (its `call` record, read after the change's own). */
function fillCallTool(item: ToolChange, callTool: ReadonlyMap<string, string>): void {
  const by = item.cause?.by;
  if (by === undefined || item.cause?.byTool !== undefined) return;
  const tool = callTool.get(by);
  if (tool !== undefined) (item as { cause: ToolChangeCause }).cause = { ...item.cause, byTool: tool };
}

/**
 * The set offered at a step, and its change against the set before (`current`, undefined when not known):
 * a change record applies as written; a whole list is compared.
 */
function stepDiff(
  current: Set<string> | undefined,
  record: StepRecord,
): { now?: Set<string>; added?: readonly string[]; removed?: readonly string[] } {
  if (record.tools) {
    const now = new Set(record.tools);
    if (!current) return { now };
    const added = record.tools.filter((t) => !current.has(t));
    const removed = [...current].filter((t) => !now.has(t));
    return { now, added, removed };
  }
  if (!current) return {};
  const added = record.added ?? [];
  const removed = record.removed ?? [];
  if (added.length + removed.length === 0) return { now: current, added, removed };
  const now = new Set(current);
  for (const tool of removed) now.delete(tool);
  for (const tool of added) now.add(tool);
  return { now, added, removed };
}

/** The step records in file order, indexed to find a step's record and the whole list before it at once. */
interface StepIndex {
  readonly records: StepRecord[];
  /** Where each step number's first record is in `records`. */
  readonly first: Map<number, number>;
  /** For each record, where the last whole list at or before it is (-1: none). */
  readonly lastList: number[];
  add(record: StepRecord): void;
}

function stepIndex(): StepIndex {
  const index: StepIndex = {
    records: [],
    first: new Map(),
    lastList: [],
    add(record) {
      const at = index.records.push(record) - 1;
      if (!index.first.has(record.step)) index.first.set(record.step, at);
      index.lastList.push(record.tools === undefined ? (index.lastList[at - 1] ?? -1) : at);
    },
  };
  return index;
}

/**
 * The tools offered at `step`: the last whole list at or before it, with the changes after it applied (a
 * whole list is written every `TOOL_SET_CHECKPOINT` steps, so this replays at most that many).
 */
function toolsAt({ records, first, lastList }: StepIndex, step: number): readonly string[] | undefined {
  const index = first.get(step);
  if (index === undefined) return undefined;
  const from = lastList[index]!;
  if (from === -1) return undefined;
  // Replayed changes are only trusted when no step line between the whole list and this step was lost.
  if (records[index]!.step - records[from]!.step !== index - from) return undefined;
  const tools = [...records[from]!.tools!];
  for (const record of records.slice(from + 1, index + 1)) {
    const gone = new Set(record.removed ?? []);
    for (let i = tools.length - 1; i >= 0; i--) if (gone.has(tools[i]!)) tools.splice(i, 1);
    for (const tool of record.added ?? []) tools.push(tool);
  }
  return tools;
}
