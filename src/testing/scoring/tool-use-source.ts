import { EntityToolsError } from "../../errors/entity-tools-error.js";
import type { RunLogRead } from "../../run-log/read-run-log.js";
import { runView, type RunView } from "../../run-log/run-log-steps.js";
import type { RecordedStep } from "../run-recorder.js";
import { recordedToolUse } from "./recorded-run.js";
import { resultToolUse, type ScoredResult } from "./result-run.js";
import { runLogToolUse } from "./run-log-run.js";
import type { ToolUseRun } from "./tool-use-run.js";

/**
 * What `scoreToolUse` reads: a run's result (`ToolLoopResult`), a `RunRecorder` or `FakePromptRunner` (or
 * their `steps`), a run log (`readRunLog(text)`, or `runView` of it), or a {@link ToolUseRun} made by hand
 * or by another source.
 */
export type ToolUseSource =
  | ScoredResult
  | readonly RecordedStep[]
  | { readonly steps: readonly RecordedStep[] }
  | RunLogRead
  | RunView
  | readonly (RunLogRead | RunView)[]
  | ToolUseRun;

const ACCEPTED =
  "a run's result (ToolLoopResult), a RunRecorder or FakePromptRunner (or their steps), a run log " +
  "(readRunLog(text), or runView of it; a run paused and resumed: its files' reads in order, in an array), " +
  "or a ToolUseRun ({ steps: [{ step, offered?, calls }] })";

/**
 * `source` as the scorer reads it.
 *
 * @throws EntityToolsError naming the shapes it reads, for anything else (a run log's text, an event list)
 */
export function toolUseRunOf(source: ToolUseSource): ToolUseRun {
  if (Array.isArray(source)) {
    const items: readonly unknown[] = source;
    const logs = items.flatMap((item) => (isRunLog(item) ? [asView(item)] : []));
    if (logs.length > 0 && logs.length === items.length) return runLogToolUse(logs);
    if (items.every((item) => isObject(item) && "toolsOffered" in item && Array.isArray(item.calls)))
      return recordedToolUse(source as readonly RecordedStep[]);
    throw unreadable(source);
  }
  if (typeof source !== "object" || source === null) throw unreadable(source);
  if ("conversationHistory" in source && "snapshot" in source) return resultToolUse(source);
  if (isRunLog(source)) return runLogToolUse([asView(source)]);
  const steps: unknown = (source as { readonly steps?: unknown }).steps;
  if (!Array.isArray(steps) || !steps.every((s) => typeof s === "object" && s !== null))
    throw unreadable(source);
  if (steps.length > 0 && "toolsOffered" in steps[0]) return recordedToolUse(steps as RecordedStep[]);
  if (!steps.every((s: object) => "calls" in s && Array.isArray(s.calls))) throw unreadable(source);
  return source as ToolUseRun;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** A run log read (`readRunLog`) or its view (`runView`). */
function isRunLog(value: unknown): value is RunLogRead | RunView {
  return (
    isObject(value) &&
    (("toolsAt" in value && typeof value.toolsAt === "function") ||
      ("records" in value && Array.isArray(value.records)))
  );
}

function asView(log: RunLogRead | RunView): RunView {
  return "toolsAt" in log ? log : runView(log);
}

function unreadable(source: unknown): EntityToolsError {
  const what =
    typeof source === "string"
      ? "a string"
      : Array.isArray(source)
        ? "an array of other things"
        : typeof source === "object" && source !== null
          ? `an object with the keys ${keysOf(source)}`
          : String(source);
  const hint = typeof source === "string" ? " A run log's text is read with readRunLog(text) first." : "";
  return new EntityToolsError(`scoreToolUse cannot read ${what}: pass ${ACCEPTED}.${hint}`);
}

/** The first few keys, for the message. */
function keysOf(source: object): string {
  const keys = Object.keys(source);
  if (keys.length === 0) return "(none)";
  return keys.length > 6 ? `${keys.slice(0, 6).join(", ")}, …` : keys.join(", ");
}
