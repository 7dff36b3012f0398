/**
 * `entity-tools/mcp`: entity tools for every MCP client (`createMcpServer`), on the official
 * `@modelcontextprotocol/sdk`. MCP servers as tool sources of a run are `runner.withMcpClient(client)`.
 */
export { createMcpServer } from "./create-mcp-server.js";
export type { McpServerOptions } from "./create-mcp-server.js";
