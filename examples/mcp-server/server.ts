// The customer example as an MCP server: `searchCustomer` and `findCustomers`, and the tools of every
// customer a call returns, added for that session with notifications/tools/list_changed.
//   stdio:            node --import tsx examples/mcp-server/server.ts
//   Streamable HTTP:  node --import tsx examples/mcp-server/server.ts --http [port]   (127.0.0.1, default 3333)
//   --dispatch (stdio): also offer call_discovered_tool, for clients that ignore list_changed (Codex)
import "../register-schemas.js";
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpServer } from "entity-tools/mcp";
import { CustomerSearchTools } from "../domain/customer-search-tools.js";

/** One session's server: its own registry, so customers one client found stay its own. */
export function shopServer(dispatch = false) {
  return createMcpServer({
    name: "shop",
    version: "1.0.0",
    tools: [new CustomerSearchTools()],
    discovery: true,
    dispatch,
  });
}

/** Serves MCP over Streamable HTTP at `/mcp` on 127.0.0.1, one server per session. */
export async function serveHttp(port: number): Promise<{ url: string; close: () => Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: HttpServer = createServer((req, res) => {
    void (async () => {
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (!transport) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
        });
        created.onclose = () => void (created.sessionId && sessions.delete(created.sessionId));
        await shopServer().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  const { port: bound } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function main(argv: readonly string[]): Promise<void> {
  const http = argv.indexOf("--http");
  if (http >= 0) {
    const { url } = await serveHttp(Number(argv[http + 1] ?? 3333));
    console.error(`MCP server "shop" listening on ${url}`);
    return;
  }
  await shopServer(argv.includes("--dispatch")).connect(new StdioServerTransport());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main(process.argv.slice(2));
