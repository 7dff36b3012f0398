import { isAnotherModel } from "./step-responses.js";
import { toolFailureSummary } from "./tool-failure-summary.js";
import type { ToolLoopEvent, ToolLoopObserver } from "./tool-loop-event.js";

/** Where debug lines go: `console` fits, as do pino, winston and most loggers. */
export interface DebugLogger {
  /** One line about a step or a tool-set change. */
  info(line: string): void;
  /** One line about something the run worked around. */
  warn(line: string): void;
  /** One line about a failure. */
  error(line: string): void;
}

/** The logger `ENTITY_TOOLS_DEBUG=1` turns on: standard error, so a program's own output stays clean. */
export const STDERR_LOGGER: DebugLogger = {
  info: (line) => console.error(line),
  warn: (line) => console.error(line),
  error: (line) => console.error(line),
};

/**
 * An observer that logs a run's steps, tool-set changes and errors, one line each, prefixed with
 * `[entity-tools <run id>]`. Tool arguments and results are never logged (they may hold personal data),
 * nor a failed call's message (it may quote them): only the tool and the kind of failure.
 */
export function debugLogObserver(logger: DebugLogger): ToolLoopObserver {
  // The step each run's last response was on, and the model its responses named first: a further response
  // on it is the tokens of a conversation backend's turn that a stop ended, or another model's in the turn.
  const responded = new Map<string, { iteration: number; modelId: string | undefined }>();
  return (event) => {
    let response: ResponseKind = "step";
    if (event.type === "ModelResponded") {
      const last = responded.get(event.runId);
      const stepModel = last?.iteration === event.iteration ? last.modelId : undefined;
      if (last?.iteration === event.iteration)
        response = isAnotherModel(stepModel, event.modelId) ? "other-model" : "turn";
      responded.set(event.runId, { iteration: event.iteration, modelId: stepModel ?? event.modelId });
    } else if (event.type === "RunFinished") responded.delete(event.runId);
    const line = lineOf(event, response);
    if (!line) return;
    const text = `[entity-tools ${event.runId}] ${line.text}`;
    logger[line.level](text);
  };
}

/** A step's response, its turn's tokens (a conversation turn a stop ended), or another model's in the turn. */
type ResponseKind = "step" | "turn" | "other-model";

function lineOf(
  event: ToolLoopEvent,
  response: ResponseKind,
): { level: keyof DebugLogger; text: string } | undefined {
  const info = (text: string) => ({ level: "info" as const, text });
  switch (event.type) {
    case "RunStarted":
      return info(event.resumed ? "run resumed" : "run started");
    case "ModelResponded": {
      const u = event.usage;
      const step = `step ${event.iteration}${event.modelId ? ` (${event.modelId})` : ""}: `;
      // Cache writes only where a provider reported some (Anthropic): they cost more than other input.
      const written =
        u.cacheWriteInputTokens === undefined ? "" : `, cache writes ${u.cacheWriteInputTokens}`;
      const tokens =
        `tokens in ${u.inputTokens} (cached ${u.cachedInputTokens}${written}) out ${u.outputTokens} ` +
        `(reasoning ${u.reasoningTokens})${event.usageUnknown ? " (the provider reported no usage: counted as 0)" : ""}`;
      if (response === "turn") return info(`${step}the turn's ${tokens}`);
      if (response === "other-model")
        return info(`${step}another model in the turn (a subagent, a helper call), ${tokens}`);
      const calls = event.toolCalls.map((c) => c.toolName).join(", ") || "none";
      return info(`${step}${Math.round(event.durationMs)} ms, ${tokens}, tool calls: ${calls}`);
    }
    case "ModelWarning":
      return { level: "warn", text: `step ${event.iteration}: ${event.message}` };
    case "ToolFailed":
      // The message may quote the model's arguments: only the kind of failure is logged.
      return { level: "warn", text: toolFailureSummary(event) };
    case "ToolProviderDiscovered":
      return info(
        `discovered ${event.identity.providerClass} ${event.identity.id}: ${event.exposedTools.join(", ")}`,
      );
    case "ToolsInjected":
      return info(`tools injected by ${event.triggeredBy}: ${event.toolNames.join(", ")}`);
    case "ToolsRemoved":
      return info(
        `tools removed (${event.reason === "budget" ? "evicted" : event.reason}): ${event.toolNames.join(", ")}`,
      );
    case "VisibilityExpanded":
      return info(`section ${event.sectionKey} expanded (${event.mode})`);
    case "RunRestarted": // one line a restart: its new thread's details (ConversationRestarted) add none
      return info(`run restarted (${event.cause}${event.sections ? `: ${event.sections.join(", ")}` : ""})`);
    case "ApprovalRequested":
      return info(`${event.toolName} (${event.approvalId}) waits for approval`);
    case "ApprovalDecided":
      // A denial's reason is a person's words: only the decision is logged.
      return info(`${event.toolName} (${event.approvalId}) ${event.approved ? "approved" : "denied"}`);
    case "RunLogWarning":
      return { level: "warn", text: `run log stopped: ${event.message}` };
    case "RunFinished":
      return event.error
        ? {
            level: "error",
            text: `run failed after ${event.totalIterations} steps: ${event.error.name}: ${event.error.message}`,
          }
        : info(
            `run ${event.status} after ${event.totalIterations} steps, ${Math.round(event.durationMs)} ms`,
          );
    default:
      return undefined;
  }
}
