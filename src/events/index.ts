export type * from "./tool-loop-event.js";
export type { RunCounters } from "./run-counters.js";
