import { EntityToolsError } from "../errors/entity-tools-error.js";

/** Two sources offer a tool of one name (an MCP server and the runner's own tools, or two servers). */
export class ToolSourceClashError extends EntityToolsError {
  constructor(
    readonly toolName: string,
    readonly firstSource: string,
    readonly secondSource: string,
  ) {
    super(
      `The tool "${toolName}" is offered by both ${firstSource} and ${secondSource}: rename one of them, ` +
        "or give the server a prefix with withMcpClient(client, { prefix }) (a tool name must reach exactly one tool)",
    );
  }
}
