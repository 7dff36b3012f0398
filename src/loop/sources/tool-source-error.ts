import { ToolLoopError } from "../errors/errors.js";

/**
 * A dynamic tool source (an MCP server) could not be listed: it is down or disconnected, answered with an
 * error, or did not finish its list in time. `cause` is the source's own error.
 */
export class ToolSourceError extends ToolLoopError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ToolSourceError";

  constructor(
    /** The source's label (`mcp:shop (2026-07-28)`). */
    readonly source: string,
    /** Why it could not be listed, in words. */
    readonly reason: string,
    cause?: unknown,
  ) {
    super(
      `The tool source ${source} could not be listed: ${reason}. Check that the server is running and the client connected, or leave it out of the runner`,
      { cause },
    );
  }
}
