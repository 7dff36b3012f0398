import { EntityToolsError } from "../errors/entity-tools-error.js";

/**
 * A failure of the Claude Agent SDK backend: the SDK is missing or changed shape, Claude Code ended or
 * reported an error. A run reports it as a `ModelCallError` whose `cause` is this error, and this error's
 * own `cause` is the SDK's, when there is one.
 */
export class ClaudeAgentSdkError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ClaudeAgentSdkError";

  constructor(
    message: string,
    /** The last lines Claude Code wrote to stderr, when it wrote any. */
    readonly stderrTail: string = "",
    options?: { cause?: unknown },
  ) {
    super(stderrTail ? `${message}\nClaude Code's stderr ends with:\n${stderrTail}` : message, options);
  }
}
