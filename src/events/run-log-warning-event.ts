/**
 * The run log (`withRunLog`) could not write (the disk is full, the folder went away): it stops writing
 * this run's file, and the run goes on.
 */
export interface RunLogWarningEvent {
  /** Identifies the run. */
  readonly runId: string;
  readonly type: "RunLogWarning";
  /** The log file. */
  readonly file: string;
  readonly message: string;
}
