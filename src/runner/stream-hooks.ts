// What feeds a streamed run's parts: the run's model parts, step ends and events, each made a part.
import type { ToolLoopEvent } from "../events/tool-loop-event.js";
import type { ModelStreamPart } from "../loop/ports/model-port.js";
import type { StepListener } from "../loop/drivers/step-driver.js";
import type { RunStreamPart } from "./run-stream.js";

/** What a run hands its drivers and events to feed a stream. */
export interface StreamHooks {
  readonly listener: StepListener;
  readonly observe: (event: ToolLoopEvent) => void;
}

/**
 * The hooks that turn a run's model parts, step ends and events into a stream's parts, given to `emit`.
 * `emit` resolves when the run may go on: the drivers and adapters wait for it at each model part and
 * before each step (events and step ends come from code that cannot wait; they are few per step).
 */
export function streamHooks(emit: (part: RunStreamPart) => Promise<void>): StreamHooks {
  let ready = Promise.resolve();
  const sent = (part: RunStreamPart) => {
    ready = emit(part);
    return ready;
  };
  return {
    listener: {
      onModelPart: (part) => sent(modelPart(part)),
      onStepFinish: (iteration) => void sent({ type: "step-finish", iteration }),
      ready: () => ready,
    },
    observe: (event) => {
      const part = eventPart(event);
      if (part) void sent(part);
    },
  };
}

function modelPart(part: ModelStreamPart): RunStreamPart {
  if (part.type === "text-delta") return part;
  const { toolCallId, toolName, input } = part.call;
  return { type: "tool-call", toolCallId, toolName, input };
}

function eventPart(event: ToolLoopEvent): RunStreamPart | undefined {
  switch (event.type) {
    case "ToolInvoked":
      return {
        type: "tool-result",
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        output: event.resultText,
        ...(event.parts ? { parts: event.parts } : {}),
        isError: false,
      };
    case "ToolFailed":
      return {
        type: "tool-result",
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        output: event.message,
        isError: true,
        ...(event.reason === "denied" ? { denied: true } : {}),
      };
    case "ToolsInjected":
      return { type: "tools-injected", names: event.toolNames };
    case "ToolsRemoved":
      return { type: "tools-removed", names: event.toolNames };
    default:
      return undefined;
  }
}
