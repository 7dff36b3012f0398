import type { ModelMessage } from "ai";
import type { JsonSchema } from "../schema/json-schema.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import type { RunEvents } from "../events/run-events.js";
import { OutputValidationError, ToolLoopAbortedError, ToolLoopError, withConversation } from "./errors.js";
import { outputInstruction, readAnswer, repairRequest } from "./structured-output.js";
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

/** The model's final answer: usable, or the repair request to send back. */
export type AnswerVerdict =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly repair: string };

/**
 * Judges final answers for one run: parses and validates them, reports rejections, and hands back the
 * repair request until the repairs allowed are used up.
 */
export class FinalAnswerCheck {
  private repairs = 0;

  constructor(
    private readonly schema: JsonSchema | undefined,
    private readonly maxRepairs: number,
    private readonly events: RunEvents,
  ) {}

  /** @throws OutputValidationError when the answer is unusable and no repair is left. */
  judge(text: string, iteration: number): AnswerVerdict {
    const final = readAnswer(text, this.schema);
    if (final.ok) return final;
    this.events.emit({ type: "OutputRejected", iteration, problems: final.problems });
    if (this.repairs >= this.maxRepairs) throw new OutputValidationError(final.problems, text, this.repairs);
    this.repairs++;
    return { ok: false, repair: repairRequest(final.problems) };
  }
}
