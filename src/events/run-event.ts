/** What every event of a run carries (each `ToolLoopEvent` has these fields). */
export interface RunEvent {
  /** Identifies the run (a runner serves many runs, possibly at once). */
  readonly runId: string;
}
