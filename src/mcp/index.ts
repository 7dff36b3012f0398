/**
 * `entity-tools/mcp`: entity tools for every MCP client (`createMcpServer`), on the official TypeScript
 * SDK v2 (`@modelcontextprotocol/server`), for the 2026-07-28 and 2025-11-25 revisions, and the SDK's stdio
 * and Streamable HTTP server transports with the answers theirs leave out (`McpStdioServerTransport`,
 * `McpStreamableHTTPServerTransport`). MCP servers as
 * tool sources of a run are `runner.withMcpClient(client, options)` on the core entry; the types of that
 * client side are exported here too (and from `entity-tools`), for code that imports MCP from one place.
 */
export { createMcpServer, DEFAULT_LIST_TTL_MS } from "./create-mcp-server.js";
export type { McpNewToolsMode, McpServerOptions } from "./mcp-server-options.js";
export {
  McpStdioServerTransport,
  type McpStdioServerTransportOptions,
} from "./mcp-stdio-server-transport.js";
export { McpStreamableHTTPServerTransport } from "./mcp-streamable-http-server-transport.js";
export type {
  McpClientLike,
  McpClientOptions,
  McpListedTool,
  McpToolPage,
} from "../adapters/mcp-client-source.js";
