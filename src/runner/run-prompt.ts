// One run of a runner's configuration: its observers (the runner's, telemetry, the debug log, a stream's)
// around the run, and the result the caller gets.
import { checkConversationId } from "../conversations/conversation-store-port.js";
import { debugLogObserver, STDERR_LOGGER } from "../events/debug-log.js";
import { RunEvents } from "../events/run-events.js";
import { newRunId } from "../events/run-id.js";
import { continuedConversation, continuedRun } from "../loop/snapshot/continued-run.js";
import { startRunLog } from "../run-log/run-log.js";
import { runTelemetry } from "../telemetry/run-telemetry.js";
import { executeRun } from "./execute-run.js";
import { resolveOutput } from "./output-target.js";
import type { RunStreamPart } from "./run-stream.js";
import { streamHooks } from "./stream-hooks.js";
import type { RunStart } from "./run-start.js";
import type { RunOptions, RunnerConfig } from "./runner-options.js";
import type { ToolLoopResult } from "./tool-loop-result.js";

/**
 * Runs `start` with the runner's `config` and the call's `options`; `emit`: a streamed run's part sink,
 * which resolves when the run may go on (its reader caught up).
 */
export async function runPrompt<T>(
  config: RunnerConfig,
  options: RunOptions<T>,
  start: RunStart,
  emit?: (part: RunStreamPart) => Promise<void>,
): Promise<ToolLoopResult<T>> {
  if (options.conversationId !== undefined) checkConversationId(options.conversationId);
  const stream = emit && streamHooks(emit);
  const output = options.output === undefined ? undefined : resolveOutput(options.output);
  const { telemetry, logger, observers, pricing, runLog } = config;
  const traced = telemetry && (await runTelemetry(telemetry));
  const log = logger ?? (process.env["ENTITY_TOOLS_DEBUG"] === "1" ? STDERR_LOGGER : undefined);
  const { resume } = start;
  const runId = newRunId(); // made first: the run log names its file by it
  const logged =
    runLog &&
    startRunLog(runLog, {
      id: runId,
      kind: resume === undefined ? "run" : resume.followUp ? "continue" : "resume",
      prompt: resume === undefined ? start.messages : resume.followUp,
      system: typeof config.system === "string" ? config.system : undefined,
      continues: resume && continuedRun(resume.snapshot),
      conversationId: options.conversationId ?? (resume && continuedConversation(resume.snapshot)),
      pricing,
      onFailure: (file, message) => events.emit({ type: "RunLogWarning", file, message }),
    });
  // The runner's observers, then telemetry, the run log, the debug log and the stream's.
  const events = new RunEvents(
    [
      ...observers,
      ...(traced ? [traced.observe] : []),
      ...(logged ? [logged.observe] : []),
      ...(log ? [debugLogObserver(log)] : []),
      ...(stream ? [stream.observe] : []),
    ],
    { pricing, scope: traced?.scope, runId },
  );
  const { observers: _observers, ...setup } = config;
  const outcome = await executeRun({
    ...setup,
    ...start,
    listener: stream?.listener,
    outputSchema: output?.schema,
    signal: options.signal,
    conversationId: options.conversationId,
    events,
  }).catch((error: unknown) => {
    logged?.finish();
    throw error;
  });
  logged?.finish();
  const common = {
    pendingApprovals: outcome.pending,
    snapshot: outcome.snapshot,
    // A copy: the run's own array keys what the model adapter keeps for the run (its converted prompt),
    // which a caller holding the result would otherwise keep alive.
    conversationHistory: [...outcome.history],
    totalIterations: outcome.iterations,
    injectedTools: outcome.injectedTools,
    usage: outcome.usage,
    counters: events.counters,
    visibility: outcome.visibility,
    ...(events.cost ? { cost: events.cost, callCost: events.callCost! } : {}),
  };
  if (outcome.status !== "completed") return { ...common, status: outcome.status };
  return {
    ...common,
    status: "completed",
    result: (output ? output.build(outcome.answer) : outcome.answer) as T,
  };
}
