import type { ModelMessage } from "ai";
import { EntityToolsError } from "../errors/entity-tools-error.js";
import type { RunSnapshot } from "./run-snapshot.js";

/** What a run had when it failed, given to its error at construction (see `RunState.error`). */
export interface RunFailure {
  /** The conversation, every call answered. */
  readonly history: readonly ModelMessage[];
  /** Iterations of the whole run (earlier attempts and a resumed snapshot's included). */
  readonly iterations: number;
  /** Absent only for an error raised before a new run's first step (nothing to resume yet). */
  readonly snapshot?: RunSnapshot;
}

/** How a {@link ToolLoopError} is built. */
export interface ToolLoopErrorOptions {
  readonly cause?: unknown;
  /** The run it ends: its history, iterations and snapshot. */
  readonly run?: RunFailure;
  /**
   * The error thrown where the failure was noticed, before the run could be written down: this one is
   * its completed form and keeps its details (`maxIterations`, `requestedTool`, …) and stack (see
   * {@link withRun}).
   */
  readonly completes?: ToolLoopError;
}

/**
 * Base of every error a run throws. It carries the conversation up to the failure, so nothing the model
 * or the tools said is lost, and the number of model calls made; all three are given when it is built.
 */
export class ToolLoopError extends EntityToolsError {
  static override readonly errorName: string = "ToolLoopError";

  readonly conversationHistory: readonly ModelMessage[];
  readonly totalIterations: number;
  /** The run up to the failure, as plain JSON: pass it to `runner.resume` to go on from there. */
  readonly snapshot?: RunSnapshot;

  constructor(message: string, options: ToolLoopErrorOptions = {}) {
    super(message, Object.hasOwn(options, "cause") ? { cause: options.cause } : undefined);
    const { run, completes } = options;
    if (completes) {
      const { conversationHistory: _h, totalIterations: _i, snapshot: _s, ...details } = completes;
      Object.assign(this, details);
      this.stack = completes.stack;
    }
    this.conversationHistory = run ? [...run.history] : [];
    this.totalIterations = run?.iterations ?? 0;
    if (run?.snapshot) this.snapshot = run.snapshot;
  }
}

/**
 * `thrown` as the run ends with it: an error of the same class (so `instanceof`, `name` and `isInstance`
 * hold), built once with the run and keeping the thrown error's message, cause, details and stack.
 */
export function withRun<E extends ToolLoopError>(thrown: E, run: RunFailure): E {
  const options: ToolLoopErrorOptions = Object.hasOwn(thrown, "cause")
    ? { cause: thrown.cause, run, completes: thrown }
    : { run, completes: thrown };
  return Reflect.construct(ToolLoopError, [thrown.message, options], thrown.constructor) as E;
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

  constructor(reason: unknown, run?: RunFailure) {
    super(`The run was aborted${reason instanceof Error ? `: ${reason.message}` : ""}`, {
      cause: reason,
      run,
    });
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

/** Throws the run's cancellation when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ToolLoopAbortedError(signal.reason);
}
