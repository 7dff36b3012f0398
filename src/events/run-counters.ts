import type { ToolLoopEvent } from "./tool-loop-event.js";

/** Totals of one run, derived from its events. */
export interface RunCounters {
  /** Model calls (steps) of the run, earlier attempts and a resumed run's earlier part included. */
  modelCalls: number;
  /** Tool calls that ended, failed ones included. */
  toolCalls: number;
  /** Tool calls that ended in an error result (unknown tool, invalid input, threw, timeout, denied, …). */
  toolFailures: number;
  /** Tools added during the run (a provider's, a section's, a source's), counted one by one. */
  toolsInjected: number;
  /** Providers found: one each time an instance is bound or its handle made live. */
  providersDiscovered: number;
  /** Prompt sections expanded in the running conversation (`VisibilityExpanded` in `dynamic` mode). */
  dynamicExpansions: number;
  /** Prompt sections expanded by starting the run again (`VisibilityExpanded` in `restart` mode). */
  restarts: number;
}

export function emptyCounters(): RunCounters {
  return {
    modelCalls: 0,
    toolCalls: 0,
    toolFailures: 0,
    toolsInjected: 0,
    providersDiscovered: 0,
    dynamicExpansions: 0,
    restarts: 0,
  };
}

/** Sets the known counters from `earlier` (a resumed snapshot's), by own key: nothing else is copied. */
export function restoreCounters(counters: RunCounters, earlier: RunCounters): void {
  for (const key of Object.keys(emptyCounters()) as (keyof RunCounters)[]) counters[key] = earlier[key];
}

/** Updates `counters` for one event. */
export function countEvent(counters: RunCounters, event: ToolLoopEvent): void {
  switch (event.type) {
    case "ToolLoopIteration":
      counters.modelCalls++;
      break;
    case "ToolInvoked":
      counters.toolCalls++;
      break;
    case "ToolFailed":
      counters.toolCalls++;
      counters.toolFailures++;
      break;
    case "ToolsInjected":
      counters.toolsInjected += event.toolNames.length;
      break;
    case "ToolProviderDiscovered":
      countDiscovered(counters, 1);
      break;
    case "VisibilityExpanded":
      if (event.mode === "dynamic") counters.dynamicExpansions++;
      else counters.restarts++;
      break;
    default:
      break;
  }
}

/** Counts providers found: one `ToolProviderDiscovered` each, emitted or not (see `RunEvents.discovered`). */
export function countDiscovered(counters: RunCounters, providers: number): void {
  counters.providersDiscovered += providers;
}
