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
  // The step each run's last response was on: a second response on it (the tokens of a conversation
  // backend's turn that a stop ended) is logged as the turn's tokens.
  const responded = new Map<string, number>();
  return (event) => {
    let again = false;
    if (event.type === "ModelResponded") {
      again = responded.get(event.runId) === event.iteration;
      responded.set(event.runId, event.iteration);
    } else if (event.type === "RunFinished") responded.delete(event.runId);
    const line = lineOf(event, again);
    if (!line) return;
    const text = `[entity-tools ${event.runId}] ${line.text}`;
    logger[line.level](text);
  };
}

function lineOf(
  event: ToolLoopEvent,
  again: boolean,
): { level: keyof DebugLogger; text: string } | undefined {
  const info = (text: string) => ({ level: "info" as const, text });
  switch (event.type) {
    case "RunStarted":
      return info(event.resumed ? "run resumed" : "run started");
    case "ModelResponded": {
      const u = event.usage;
      const step = `step ${event.iteration}${event.modelId ? ` (${event.modelId})` : ""}: `;
      const tokens = `tokens in ${u.inputTokens} (cached ${u.cachedInputTokens}) out ${u.outputTokens} (reasoning ${u.reasoningTokens})`;
      if (again) return info(`${step}the turn's ${tokens}`);
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
