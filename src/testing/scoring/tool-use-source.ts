import type { RecordedStep } from "../run-recorder.js";
import { recordedToolUse } from "./recorded-run.js";
import type { RunView } from "../../run-log/run-log-steps.js";
import { resultToolUse, type ScoredResult } from "./result-run.js";
import { runLogToolUse } from "./run-log-run.js";
import type { ToolUseRun } from "./tool-use-run.js";

/**
 * What `scoreToolUse` reads: a run's result (`ToolLoopResult`), a `RunRecorder` or `FakePromptRunner` (or
 * their `steps`), a run log (`runView(readRunLog(text))`), or a {@link ToolUseRun} made by hand or by
 * another source.
 */
export type ToolUseSource =
  ScoredResult | readonly RecordedStep[] | { readonly steps: readonly RecordedStep[] } | RunView | ToolUseRun;

/** `source` as the scorer reads it. */
export function toolUseRunOf(source: ToolUseSource): ToolUseRun {
  if (Array.isArray(source)) return recordedToolUse(source as readonly RecordedStep[]);
  if ("conversationHistory" in source && "snapshot" in source) return resultToolUse(source);
  if ("toolsAt" in source && typeof source.toolsAt === "function") return runLogToolUse(source);
  const { steps } = source as { readonly steps: readonly object[] };
  if (steps.length > 0 && "toolsOffered" in steps[0]!)
    return recordedToolUse(steps as readonly RecordedStep[]);
  return source as ToolUseRun;
}
