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
}

/** Where and how runs are logged: a folder, and the options. */
export interface RunLogTarget extends RunLogOptions {
  /** The folder (created, readable by its owner only, when missing). */
  readonly dir: string;
}

/** Default of `maxFileBytes`: 50 MB per run. */
export const DEFAULT_RUN_LOG_MAX_BYTES = 50_000_000;
