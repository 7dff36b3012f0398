// An MCP server over stdio as a user of entity-tools writes one: the SDK's `serveStdio` with
// `McpStdioServerTransport` from `entity-tools/mcp`. argv[2]: the most bytes a line may have. Each call of
// `measure` is said on stderr, so a test can tell which calls ran.
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { defineTool } from "entity-tools";
import { createMcpServer, McpStdioServerTransport } from "entity-tools/mcp";

const measure = defineTool({
  name: "measure",
  description: "The length of a text",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }: { text: string }) => {
    process.stderr.write(`measured ${text.length}\n`);
    return text.length;
  },
});

serveStdio(() => createMcpServer({ name: "lines", version: "1.0.0", tools: [measure] }), {
  transport: new McpStdioServerTransport(process.stdin, process.stdout, {
    maxBufferSize: Number(process.argv[2]),
  }),
});
