import type { ModelMessage, ToolModelMessage } from "ai";
import type { ModelAdapter, ModelStepRequest, ModelStepResult } from "../adapters/model-adapter.js";
import type { RunEvents } from "../events/run-events.js";
import type { JsonSchema } from "../schema/json-schema.js";
import type { ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import type { AnyTool } from "../tools/tool.js";
import { MaxIterationsExceededError, ModelCallError, ToolLoopAbortedError, ToolLoopError } from "./errors.js";
import type { ToolMiddleware } from "./tool-middleware.js";
import { FinalAnswerCheck, runError, startRun } from "./run-state.js";

const EMPTY_TURN: ModelMessage = { role: "assistant", content: "(empty response)" };

/** Everything one run of the loop needs; built by the runner per call. */
export interface ToolLoopConfig {
  readonly adapter: ModelAdapter;
  readonly system?: string;
  readonly tools: readonly AnyTool[];
  readonly strategies: readonly ToolInjectionStrategy[];
  readonly middleware: readonly ToolMiddleware[];
  readonly maxIterations: number;
  readonly maxInjectedTools?: number;
  readonly maxOutputRepairs: number;
  readonly maxUnknownToolCalls: number;
  readonly toolTimeoutMs?: number;
  readonly maxResultChars?: number;
  readonly signal?: AbortSignal;
  readonly events: RunEvents;
}

/** What the loop hands back; the runner turns `answer` into the caller's type. */
export interface ToolLoopOutcome {
  readonly answer: unknown;
  readonly history: ModelMessage[];
  readonly iterations: number;
  readonly injectedTools: AnyTool[];
}

/**
 * The framework-owned tool loop: one model step at a time, tools run by us, strategies evaluated after
 * every call and their changes applied before the next step. Errors thrown out of it carry the
 * conversation so far.
 */
export async function runToolLoop(
  config: ToolLoopConfig,
  messages: readonly ModelMessage[],
  outputSchema?: JsonSchema,
): Promise<ToolLoopOutcome> {
  const { history, registry, executor, system } = startRun(config, messages, outputSchema);
  let iteration = 0;
  const answers = new FinalAnswerCheck(outputSchema, config.maxOutputRepairs, config.events);
  try {
    while (iteration < config.maxIterations) {
      throwIfAborted(config.signal);
      iteration++;
      const tools = registry.all();
      config.events.emit({ type: "ToolLoopIteration", iteration, toolNames: tools.map((t) => t.name) });
      const step = await callModel(config, {
        system,
        messages: history,
        tools,
        outputSchema,
        signal: config.signal,
      });
      // An empty turn still happened: record it, so the history shows every model call and keeps alternating.
      history.push(...(step.responseMessages.length > 0 ? step.responseMessages : [EMPTY_TURN]));
      config.events.emit({
        type: "ModelResponded",
        iteration,
        text: step.text,
        toolCalls: step.toolCalls.map((c) => ({ toolName: c.toolName, input: c.input })),
      });

      if (step.toolCalls.length === 0) {
        const verdict = answers.judge(step.text, iteration);
        if (verdict.ok) {
          return { answer: verdict.value, history, iterations: iteration, injectedTools: executor.injected };
        }
        history.push({ role: "user", content: verdict.repair });
        continue;
      }

      const toolMessage: ToolModelMessage = { role: "tool", content: [] };
      history.push(toolMessage);
      for (const [index, call] of step.toolCalls.entries()) {
        try {
          toolMessage.content.push(await executor.execute(call, iteration, history));
        } catch (error) {
          // Keep the conversation well-formed: every call of this turn gets a result.
          for (const rest of step.toolCalls.slice(index))
            toolMessage.content.push(executor.cancelled(rest, iteration));
          throw error;
        }
      }
      const tooMany = executor.tooManyUnknownTools();
      if (tooMany) throw tooMany;
    }
    throw new MaxIterationsExceededError(config.maxIterations);
  } catch (error) {
    throw runError(error, history, iteration, config.signal);
  }
}

async function callModel(config: ToolLoopConfig, request: ModelStepRequest): Promise<ModelStepResult> {
  try {
    return await config.adapter.step(request);
  } catch (error) {
    if (error instanceof ToolLoopError) throw error;
    throw config.signal?.aborted
      ? new ToolLoopAbortedError(config.signal.reason ?? error)
      : new ModelCallError(error);
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ToolLoopAbortedError(signal.reason);
}
