import type { ModelMessage } from "ai";
import type { JsonSchema } from "../schema/json-schema.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { ToolLoopAbortedError, ToolLoopError, withConversation } from "./errors.js";
import { outputInstruction } from "./structured-output.js";
import { ToolCallExecutor } from "./tool-call-executor.js";
import type { ToolLoopConfig } from "./tool-loop.js";

/** What every loop holds for one run: the history, the tools, the executor and the system prompt. */
export interface RunState {
  readonly history: ModelMessage[];
  readonly registry: ToolRegistry;
  readonly executor: ToolCallExecutor;
  /** The configured system prompt plus, for structured output, the JSON instruction. */
  readonly system: string | undefined;
}

/** The state a loop starts a run with. */
export function startRun(
  config: Omit<ToolLoopConfig, "adapter">,
  messages: readonly ModelMessage[],
  outputSchema: JsonSchema | undefined,
): RunState {
  const registry = new ToolRegistry(config.tools, { maxInjectedTools: config.maxInjectedTools });
  return {
    history: [...messages],
    registry,
    executor: new ToolCallExecutor(registry, config.events, config),
    system:
      [config.system, outputSchema && outputInstruction(outputSchema)].filter(Boolean).join("\n\n") ||
      undefined,
  };
}

/**
 * The error a run throws: ours with the conversation attached; anything else wrapped, as a cancellation
 * when the run's signal fired.
 */
export function runError(
  error: unknown,
  history: readonly ModelMessage[],
  iterations: number,
  signal: AbortSignal | undefined,
): ToolLoopError {
  return withConversation(error, history, iterations, (cause) =>
    signal?.aborted
      ? new ToolLoopAbortedError(signal.reason ?? cause)
      : new ToolLoopError(`The run failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
          cause,
        }),
  );
}
