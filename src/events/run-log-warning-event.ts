/**
 * The run log (`withRunLog`) could not write (the disk is full, the folder went away): it stops writing
 * this run's file, and the run goes on.
 */
export interface RunLogWarningEvent {
  /** Identifies the run. */
  readonly runId: string;
  /** The event's kind. */ readonly type: "RunLogWarning";
  /** The log file. */
  readonly file: string;
  /** What went wrong, in words (the file system's error). */
  readonly message: string;
}
