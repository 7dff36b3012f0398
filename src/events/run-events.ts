import { countDiscovered, countEvent, emptyCounters, type RunCounters } from "./run-counters.js";
import type { RunEventInit, ToolLoopEvent, ToolLoopObserver } from "./tool-loop-event.js";

let nextRunId = 1;

/** The event channel of one run: stamps the run id, keeps the counters, and notifies observers. */
export class RunEvents {
  readonly runId = `run-${nextRunId++}`;
  readonly counters: RunCounters = emptyCounters();

  constructor(private readonly observers: readonly ToolLoopObserver[]) {}

  /**
   * One `ToolProviderDiscovered` per provider, built only when someone observes the run: a tool that
   * returns 1 000 providers then builds no 1 000 events nobody reads. The counters move either way.
   */
  discovered<T>(providers: readonly T[], event: (provider: T) => RunEventInit): void {
    if (this.observers.length === 0) countDiscovered(this.counters, providers.length);
    else for (const provider of providers) this.emit(event(provider));
  }

  emit(init: RunEventInit): void {
    const event = { ...init, runId: this.runId } as ToolLoopEvent;
    countEvent(this.counters, event);
    for (const observer of this.observers) {
      try {
        const returned: unknown = observer(event);
        // An async observer's rejection would otherwise be unhandled and could end the process.
        if (returned instanceof Promise) returned.catch(() => {});
      } catch {
        // An observer's failure must not change the run it watches.
      }
    }
  }
}
