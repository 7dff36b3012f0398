import type { AnyTool } from "../../tools/tool.js";
import { runThroughMiddleware, type ToolMiddleware } from "./tool-middleware.js";

/** A tool call ran past its time limit. */
export class ToolTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/** Whether a thrown value is our timeout; safe for any value (`instanceof` throws on a revoked Proxy). */
export function isToolTimeout(thrown: unknown): thrown is ToolTimeout {
  try {
    return thrown instanceof ToolTimeout;
  } catch {
    return false;
  }
}

/** How a tool is invoked: its middleware, its time limit, and the run's cancellation. */
export interface InvokeOptions {
  readonly middleware: readonly ToolMiddleware[];
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * The second seam of a tool call: run it through the middleware, raced against its time limit and the
 * run's signal. Whichever stops it also aborts the tool's own `context.signal`, so it can stop its work.
 *
 * @throws ToolTimeout past the time limit; the run signal's reason when the run is cancelled; whatever
 * the tool threw.
 */
export async function invokeTool(
  tool: AnyTool,
  input: Record<string, unknown>,
  toolCallId: string,
  options: InvokeOptions,
): Promise<unknown> {
  const { signal: runSignal, timeoutMs, middleware } = options;
  const stop = new CallStop();
  const stops: Promise<never>[] = [];
  let clearTimer: (() => void) | undefined;
  // A signal that already fired stops nothing new (as a listener added to it would never be called).
  const run = runSignal && !runSignal.aborted ? runStopOf(runSignal) : undefined;
  if (run) {
    run.live.add(stop);
    stops.push(run.stopped);
  }
  if (timeoutMs !== undefined) {
    stops.push(
      new Promise<never>((_, reject) => {
        const timer = setTimeout(() => {
          stop.abort(new ToolTimeout(timeoutMs));
          reject(new ToolTimeout(timeoutMs));
        }, timeoutMs);
        clearTimer = () => clearTimeout(timer);
      }),
    );
  }
  try {
    const running = runThroughMiddleware(middleware, {
      tool,
      input,
      context: {
        toolCallId,
        get signal() {
          return stop.signal;
        },
      },
    });
    return await (stops.length > 0 ? Promise.race([running, ...stops]) : running);
  } finally {
    if (run) {
      run.live.delete(stop);
      if (run.released && run.live.size === 0) detach(runSignal!, run);
    }
    clearTimer?.();
  }
}

/**
 * Called when the run that owns `signal` has ended: its listener is removed (at once, or when the last
 * call still running ends). Node keeps a signal of `AbortSignal.any` with an abort listener alive, and
 * all it holds, until it fires: left on, every run sharing a caller's long-lived signal would stay.
 */
export function releaseRunSignal(signal: AbortSignal | undefined): void {
  const run = signal && runStops.get(signal);
  if (!run) return;
  run.released = true;
  if (run.live.size === 0) detach(signal, run);
}

function detach(signal: AbortSignal, run: RunStop): void {
  signal.removeEventListener("abort", run.onAbort);
  runStops.delete(signal);
}

/** A run signal's one listener: it stops the calls running when it fires, and rejects `stopped`. */
interface RunStop {
  readonly stopped: Promise<never>;
  readonly live: Set<CallStop>;
  readonly onAbort: () => void;
  /** The run has ended (see {@link releaseRunSignal}). */
  released: boolean;
}

const runStops = new WeakMap<AbortSignal, RunStop>();

/**
 * The run signal's stop, made at its first call: one listener and one promise per run, not per call (a
 * listener added and removed and a promise for every call were a few per cent of a step, issue 46).
 */
function runStopOf(signal: AbortSignal): RunStop {
  let run = runStops.get(signal);
  if (!run) {
    const live = new Set<CallStop>();
    let onAbort: () => void = () => {};
    const stopped = new Promise<never>((_, reject) => {
      onAbort = () => {
        for (const stop of live) stop.abort(signal.reason);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
    });
    stopped.catch(() => {}); // a run that stops with no call running has no one to hear it
    run = { stopped, live, onAbort, released: false };
    runStops.set(signal, run);
  }
  return run;
}

/**
 * A call's own abort signal, made when the tool (or a middleware) first reads `context.signal`: most
 * tools never do, and an `AbortController` per call was a few per cent of a step (issue 46). Aborted
 * before it is read, it is made aborted, with the reason.
 */
class CallStop {
  private controller: AbortController | undefined;
  private stopped: { reason: unknown } | undefined;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort(this.stopped.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    this.stopped ??= { reason };
    this.controller?.abort(reason);
  }
}
