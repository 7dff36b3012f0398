import type { ToolLoopEvent } from "./tool-loop-event.js";

/** Totals of one run, derived from its events. */
export interface RunCounters {
  modelCalls: number;
  toolCalls: number;
  toolFailures: number;
  toolsInjected: number;
  providersDiscovered: number;
  dynamicExpansions: number;
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
