import { ToolLoopError } from "../loop/errors/errors.js";

/**
 * Two sources offer a tool of one name (an MCP server and the runner's own tools, or two servers). Like
 * `ToolSourceError` it is a run error: it carries the conversation so far (and, for a resumed or
 * continued run, the snapshot it started from), so the run can be resumed once the clash is fixed.
 */
export class ToolSourceClashError extends ToolLoopError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ToolSourceClashError";

  constructor(
    /** The name both sources offer. */
    readonly toolName: string,
    /** The source offered first (the runner's own tools, or a server's label). */
    readonly firstSource: string,
    /** The other source. */
    readonly secondSource: string,
  ) {
    super(
      `The tool "${toolName}" is offered by both ${firstSource} and ${secondSource}: rename one of them, ` +
        "or give the server a prefix with withMcpClient(client, { prefix }) (a tool name must reach exactly one tool)",
    );
  }
}
