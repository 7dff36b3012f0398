/** Options of `PromptRunner.withRunLog` (and of `createMcpServer`'s `runLog`). */
export interface RunLogOptions {
  /**
   * Write what was said: prompts, the model's text, tool inputs and results, media, error messages and
   * denial reasons. Default true. False writes names, counts, tokens and cost only.
   */
  readonly recordContent?: boolean | undefined;
  /**
   * Most bytes one run may write (its file and its media together). Past it the file ends with a note
   * saying so (and the run's end); the run goes on. Default 50 000 000.
   */
  readonly maxFileBytes?: number | undefined;
  /**
   * Longest value a record keeps whole, in characters: a tool call's input (its JSON), its result, a
   * failure's cause, the model's text, the prompt, the system prompt, an approval's input, a reason, a
   * message. A longer one is cut to its first characters and the record says so, with its whole length
   * (`cut`), so one huge value does not fill `maxFileBytes` and lose the steps after it. Default: a
   * fiftieth of `maxFileBytes` (1 000 000 at its default).
   */
  readonly maxValueChars?: number | undefined;
}

/** Where and how runs are logged: a folder, and the options. */
export interface RunLogTarget extends RunLogOptions {
  /** The folder (created, readable by its owner only, when missing). */
  readonly dir: string;
}

/**
 * A run log's target as `withRunLog` checked it, with every default filled in (`RunnerConfig.runLog`): what
 * a run's log reads, so each default is applied in that one place.
 */
export interface ResolvedRunLogTarget extends RunLogTarget {
  /** `RunLogOptions.recordContent`, or its default, true. */
  readonly recordContent: boolean;
  /** `RunLogOptions.maxFileBytes`, or its default, {@link DEFAULT_RUN_LOG_MAX_BYTES}. */
  readonly maxFileBytes: number;
  /** `RunLogOptions.maxValueChars`, or its default, a fiftieth of `maxFileBytes` (at least 1). */
  readonly maxValueChars: number;
}

/** Default of `maxFileBytes`: 50 MB per run. */
export const DEFAULT_RUN_LOG_MAX_BYTES = 50_000_000;

/** Default of `maxValueChars`: a fiftieth of the run's `maxFileBytes` (1 000 000 at its default), at least 1. */
export function defaultMaxValueChars(maxFileBytes: number): number {
  return Math.max(1, Math.floor(maxFileBytes / 50));
}
