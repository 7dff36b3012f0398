// In-process 2026-07-28 (and 2025-11-25) serving for tests: the SDK v2's HTTP entry, reached by the SDK v2
// client through a fetch that calls the handler directly (no socket), one fresh server per request.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, type McpHttpHandler } from "@modelcontextprotocol/server";
import { createMcpServer, type McpServerOptions } from "entity-tools/mcp";

/** A 2026-07-28 endpoint of `createMcpServer(options)`, and a way to connect SDK v2 clients to it. */
export function modernEndpoint(options: McpServerOptions): {
  handler: McpHttpHandler;
  connect(clientOptions?: { elicitation?: boolean; revision?: "2026-07-28" | "2025-11-25" }): Promise<Client>;
} {
  const handler = createMcpHandler(() => createMcpServer(options));
  return {
    handler,
    async connect({ elicitation = false, revision = "2026-07-28" } = {}) {
      const client = new Client(
        { name: "test", version: "1.0.0" },
        {
          capabilities: elicitation ? { elicitation: { form: {} } } : {},
          ...(revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
        },
      );
      const transport = new StreamableHTTPClientTransport(new URL("http://mcp.test/mcp"), {
        fetch: (url, init) => handler.fetch(new Request(url, init)),
      });
      await client.connect(transport);
      return client;
    },
  };
}
