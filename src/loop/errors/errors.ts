import type { ModelMessage } from "ai";
import { EntityToolsError } from "../../errors/entity-tools-error.js";
import type { RunSnapshot } from "../snapshot/run-snapshot.js";
import { failureMessage } from "./failure-message.js";

/** What a run had when it failed: attached to its error once, when the run fails (see `Run.fail`). */
export interface RunFailure {
  /** The conversation, every call answered. */
  readonly history: readonly ModelMessage[];
  /** Iterations of the whole run (earlier attempts and a resumed snapshot's included). */
  readonly iterations: number;
  /** Absent only for an error raised before a new run's first step (nothing to resume yet). */
  readonly snapshot?: RunSnapshot;
}

/**
 * Base of every error a run throws. It carries the conversation up to the failure, so nothing the model
 * or the tools said is lost, the number of model calls made, and a snapshot to resume from. An error is
 * made where the failure is noticed (by the loop, a backend, a custom adapter: any subclass); the run it
 * ends attaches those three once, when it fails, to that very object, so a subclass keeps its own fields,
 * private ones included, and its stack.
 */
export class ToolLoopError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ToolLoopError";

  /** The conversation up to the failure, every call answered (empty on an error no run has ended). */
  readonly conversationHistory: readonly ModelMessage[] = [];
  /** Model calls of the whole run, a resumed run's earlier part and a conversation's earlier turns included. */
  readonly totalIterations: number = 0;
  /** The run up to the failure, as plain JSON: pass it to `runner.resume` to go on from there. */
  readonly snapshot?: RunSnapshot;

  constructor(message: string, options: { readonly cause?: unknown } = {}) {
    super(message, Object.hasOwn(options, "cause") ? { cause: options.cause } : undefined);
  }
}

/**
 * Gives `error` the run it ends (its conversation, iterations and snapshot): the object thrown is the object
 * the caller catches, not a copy of it. A run attaches itself once (see `Run.fail`); an error that ends a
 * second run (a run nested in a custom adapter, its error let through) carries the last one, the run whose
 * caller catches it. Internal: only a failing run calls it.
 */
export function attachRun(error: ToolLoopError, run: RunFailure): void {
  const fields = error as { -readonly [K in keyof RunFields]: RunFields[K] };
  fields.conversationHistory = [...run.history];
  fields.totalIterations = run.iterations;
  if (run.snapshot) fields.snapshot = run.snapshot;
  else delete fields.snapshot;
}

type RunFields = Pick<ToolLoopError, "conversationHistory" | "totalIterations" | "snapshot">;

/** The model was still calling tools when the iteration limit was reached. */
export class MaxIterationsExceededError extends ToolLoopError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "MaxIterationsExceededError";

  constructor(
    /** The limit reached (`withMaxToolIterations`). */
    readonly maxIterations: number,
  ) {
    super(
      `The model did not finish within ${maxIterations} iterations (model responses); raise withMaxToolIterations() or simplify the task`,
    );
  }
}

/** The model kept calling tools that do not exist. */
export class ToolNotFoundError extends ToolLoopError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ToolNotFoundError";

  constructor(
    /** The last unknown tool the model called. */
    readonly requestedTool: string,
    /** The tools it was offered then. */
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
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "OutputValidationError";

  constructor(
    /** What was still wrong with the last answer, one problem each. */
    readonly problems: readonly string[],
    /** The model's last answer, as it wrote it. */
    readonly lastText: string,
    repairs: number,
  ) {
    super(`The model's answer was still unusable after ${repairs} repair attempt(s): ${problems.join("; ")}`);
  }
}

/**
 * The run was cancelled through its AbortSignal. The message says the signal's reason as a failure's is
 * said (an error's message, a string as it is: `abort("the page went away")`); `cause` is the reason.
 */
export class ToolLoopAbortedError extends ToolLoopError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ToolLoopAbortedError";

  constructor(reason: unknown) {
    super(`The run was aborted${reason === undefined ? "" : `: ${failureMessage(reason)}`}`, {
      cause: reason,
    });
  }
}

/** The model call itself failed (network, HTTP status, provider error); `cause` is the original error. */
export class ModelCallError extends ToolLoopError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ModelCallError";

  constructor(cause: unknown) {
    super(`The model call failed: ${failureMessage(cause)}`, { cause });
  }
}

/** A strategy threw while evaluating a tool result (a bug in the strategy, not in the model's input). */
export class StrategyError extends ToolLoopError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "StrategyError";

  constructor(toolName: string, cause: unknown) {
    super(`An injection strategy failed after "${toolName}": ${failureMessage(cause)}`, {
      cause,
    });
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
