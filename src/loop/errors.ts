import type { ModelMessage } from "ai";
import { EntityToolsError } from "../errors/entity-tools-error.js";
import type { RunSnapshot } from "./run-snapshot.js";

/**
 * Base of every error a run throws. It carries the conversation up to the failure, so nothing the model
 * or the tools said is lost, and the number of model calls made.
 */
export class ToolLoopError extends EntityToolsError {
  static override readonly errorName: string = "ToolLoopError";

  conversationHistory: readonly ModelMessage[] = [];
  totalIterations = 0;
  /** The run up to the failure, as plain JSON: pass it to `runner.resume` to go on from there. */
  snapshot?: RunSnapshot;
}

/** The model was still calling tools when the iteration limit was reached. */
export class MaxIterationsExceededError extends ToolLoopError {
  static override readonly errorName: string = "MaxIterationsExceededError";

  constructor(readonly maxIterations: number) {
    super(
      `The model did not finish within ${maxIterations} iterations (model responses); raise withMaxToolIterations() or simplify the task`,
    );
  }
}

/** The model kept calling tools that do not exist. */
export class ToolNotFoundError extends ToolLoopError {
  static override readonly errorName: string = "ToolNotFoundError";

  constructor(
    readonly requestedTool: string,
    readonly availableTools: readonly string[],
    consecutive: number,
  ) {
    super(
      `The model called unknown tools ${consecutive} times in a row, last "${requestedTool}"; available: ${availableTools.join(", ") || "(none)"}`,
    );
  }
}

/** The final answer never parsed or validated, even after the repairs allowed. */
export class OutputValidationError extends ToolLoopError {
  static override readonly errorName: string = "OutputValidationError";

  constructor(
    readonly problems: readonly string[],
    readonly lastText: string,
    repairs: number,
  ) {
    super(`The model's answer was still unusable after ${repairs} repair attempt(s): ${problems.join("; ")}`);
  }
}

/** The run was cancelled through its AbortSignal. */
export class ToolLoopAbortedError extends ToolLoopError {
  static override readonly errorName: string = "ToolLoopAbortedError";

  constructor(reason: unknown) {
    super(`The run was aborted${reason instanceof Error ? `: ${reason.message}` : ""}`, { cause: reason });
  }
}

/** The model call itself failed (network, HTTP status, provider error); `cause` is the original error. */
export class ModelCallError extends ToolLoopError {
  static override readonly errorName: string = "ModelCallError";

  constructor(cause: unknown) {
    super(`The model call failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** A strategy threw while evaluating a tool result (a bug in the strategy, not in the model's input). */
export class StrategyError extends ToolLoopError {
  static override readonly errorName: string = "StrategyError";

  constructor(toolName: string, cause: unknown) {
    super(
      `An injection strategy failed after "${toolName}": ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
  }
}

/**
 * A model backend's failure as the run reports it: our own errors as they are, a cancellation when the
 * run's signal fired, anything else a {@link ModelCallError} with the backend's error as `cause`.
 */
export function modelFailure(error: unknown, signal: AbortSignal | undefined): ToolLoopError {
  if (error instanceof ToolLoopError) return error;
  return signal?.aborted ? new ToolLoopAbortedError(signal.reason ?? error) : new ModelCallError(error);
}

/** Attaches the conversation so far to a run error, wrapping anything that is not one of ours. */
export function withConversation(
  error: unknown,
  history: readonly ModelMessage[],
  iterations: number,
  wrap: (cause: unknown) => ToolLoopError,
): ToolLoopError {
  const loopError = error instanceof ToolLoopError ? error : wrap(error);
  loopError.conversationHistory = [...history];
  loopError.totalIterations = iterations;
  return loopError;
}

/** Throws the run's cancellation when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ToolLoopAbortedError(signal.reason);
}
