import { attachRun, ToolLoopAbortedError, ToolLoopError, type RunFailure } from "../errors/errors.js";

/**
 * The error a run ends with, `run` attached: a `ToolLoopError` (ours, or a backend's subclass) is the very
 * object thrown, so its class, fields (private ones too) and stack stay as they were made; anything else is
 * wrapped, as a cancellation when `signal` fired.
 */
export function failureOf(cause: unknown, run: RunFailure, signal?: AbortSignal): ToolLoopError {
  const error =
    cause instanceof ToolLoopError
      ? cause
      : signal?.aborted
        ? new ToolLoopAbortedError(signal.reason ?? cause)
        : new ToolLoopError(`The run failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
            cause,
          });
  attachRun(error, run);
  return error;
}
