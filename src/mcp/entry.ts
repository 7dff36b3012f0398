// `entity-tools/mcp` for `import`: the same exports as ./index.ts, loaded only after the MCP SDK loaded.
// Static imports are linked before any code runs, so a missing `@modelcontextprotocol/server` would be
// Node's bare ERR_MODULE_NOT_FOUND; loading it first with a dynamic import lets the error say what to
// install, as the Claude entry does. `require` keeps ./index.ts (a CommonJS caller cannot wait for
// top-level await), where Node's own error names the package. The validator is loaded here too, with
// `import()` so that a bundle carries it: `createMcpServer` checks explicit schemas against JSON Schema
// when it is called, and in a bundle it could not `require` the validator then.
import { EntityToolsError } from "../errors/entity-tools-error.js";
import { loadValidator } from "../schema/validate.js";
import type * as McpEntry from "./index.js";

export type {
  McpClientLike,
  McpClientOptions,
  McpListedTool,
  McpNewToolsMode,
  McpServerOptions,
  McpStdioServerTransportOptions,
  McpToolPage,
} from "./index.js";

/** The package `entity-tools/mcp` serves MCP with (an optional peer). */
const SERVER_PACKAGE = "@modelcontextprotocol/server";

const entry: typeof McpEntry = await loadEntry();

/** See {@link McpEntry.createMcpServer}. */
export const createMcpServer = entry.createMcpServer;
/** See {@link McpEntry.DEFAULT_LIST_TTL_MS}. */
export const DEFAULT_LIST_TTL_MS = entry.DEFAULT_LIST_TTL_MS;
/** See {@link McpEntry.McpStdioServerTransport}. */
export const McpStdioServerTransport = entry.McpStdioServerTransport;
/** See {@link McpEntry.McpStdioServerTransport}. */
export type McpStdioServerTransport = McpEntry.McpStdioServerTransport;
/** See {@link McpEntry.McpStreamableHTTPServerTransport}. */
export const McpStreamableHTTPServerTransport = entry.McpStreamableHTTPServerTransport;
/** See {@link McpEntry.McpStreamableHTTPServerTransport}. */
export type McpStreamableHTTPServerTransport = McpEntry.McpStreamableHTTPServerTransport;

async function loadEntry(): Promise<typeof McpEntry> {
  try {
    await import(SERVER_PACKAGE);
  } catch (error) {
    throw new EntityToolsError(
      `entity-tools/mcp could not load ${SERVER_PACKAGE}: ${error instanceof Error ? error.message : String(error)}. ` +
        `Install it with \`npm install ${SERVER_PACKAGE}\` (and \`@modelcontextprotocol/node\` to serve over HTTP).`,
      { cause: error },
    );
  }
  await loadValidator();
  return import("./index.js");
}
