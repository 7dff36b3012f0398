// The customer example as an MCP server, for both protocol revisions:
//   2026-07-28  stateless: searchCustomer, findCustomers and the customer handle tools
//               (customer_getAverageSpend { handle }, customer_recentOrders { handle, limit }); a call that
//               finds customers names their handles.
//   2025-11-25  legacy sessions: a call that finds customers adds their tools (customer_c123_…) to that
//               session, with notifications/tools/list_changed.
//   stdio:            node --import tsx examples/mcp-server/server.ts
//   Streamable HTTP:  node --import tsx examples/mcp-server/server.ts --http [port]   (127.0.0.1, default 3333)
//                     [--host address] [--allowed-host name]…  answers only requests for localhost,
//                     127.0.0.1, [::1] and the allowed names (Host and Origin: DNS rebinding), 403 otherwise
//   --dispatch: also offer call_discovered_tool to 2025-11-25 clients that ignore list_changed (Codex)
//   SHOP_HANDLE_KEY: the key handles are signed with (default: random per process)
import "../register-schemas.js";
import { randomUUID } from "node:crypto";
import { realpathSync } from "node:fs";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { hostHeaderValidation, originValidation, toNodeHandler } from "@modelcontextprotocol/node";
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  localhostAllowedHostnames,
  readRequestBody,
  type Server,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createMcpServer, McpStdioServerTransport, McpStreamableHTTPServerTransport } from "entity-tools/mcp";
import { Customer } from "../domain/customer.js";
import { CustomerSearchTools } from "../domain/customer-search-tools.js";

const search = new CustomerSearchTools();

/** One server: per request (2026-07-28), or per legacy session with its own discoveries (2025-11-25). */
export function shopServer(dispatch = false) {
  return createMcpServer({
    name: "shop",
    version: "1.0.0",
    tools: [search],
    discovery: true,
    newTools: dispatch ? "dispatch" : "dynamic",
    classes: [Customer],
    handleKey: process.env.SHOP_HANDLE_KEY,
    // A handle names (class, id); each request finds the customer again by id.
    resolveProvider: (_className, id) => search.findCustomers("").find((c) => c.id === id),
  });
}

/** Options of {@link serveHttp}. */
export interface HttpOptions {
  /** A legacy session unused this long is closed and forgotten, in milliseconds. Default 30 minutes. */
  readonly sessionIdleMs?: number;
  /**
   * Most legacy sessions held at once. A new session past it closes the least recently used one (its
   * client's next request is answered 404, so it starts a new session, as the spec says). Default 1 000.
   */
  readonly maxSessions?: number;
  /** The address to listen on. Default 127.0.0.1 (this machine only). */
  readonly host?: string;
  /**
   * The host names the server answers besides localhost, 127.0.0.1 and [::1]: those clients reach it by
   * when it listens on another interface on purpose. A request with another `Host`, or from a page of
   * another `Origin`, is answered 403 (the SDK's DNS rebinding protection).
   */
  readonly allowedHosts?: readonly string[];
  /** The MCP server each 2025-11-25 session and each 2026-07-28 request gets. Default: the shop's. */
  readonly server?: () => Server;
}

/** Idle legacy sessions are closed after this long by default (each holds a server and its discoveries). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

/**
 * Most legacy sessions held at once by default. Clients that never close theirs (no DELETE) would
 * otherwise hold a server each (about 20 kB, more with discoveries) until they go idle: 2 000 initialize
 * requests held 43 MB for 30 minutes, and memory grew with every one.
 */
export const DEFAULT_MAX_SESSIONS = 1_000;

/**
 * Serves MCP over Streamable HTTP at `/mcp` on 127.0.0.1: 2026-07-28 requests through the SDK's stateless
 * handler (a fresh server per request), 2025-11-25 traffic through sessions (a server per session, closed
 * when idle or, past `maxSessions`, least recently used; an unknown or closed session id is answered 404, so
 * the client starts a new one). Requests
 * for another host name, or from a web page of another origin, are refused first (403).
 */
export async function serveHttp(
  port: number,
  options: HttpOptions = {},
): Promise<{ url: string; sessions: () => number; close: () => Promise<void> }> {
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const allowed = [...localhostAllowedHostnames(), ...(options.allowedHosts ?? [])];
  const validHost = hostHeaderValidation(allowed);
  const validOrigin = originValidation(allowed);
  const makeServer = options.server ?? (() => shopServer());
  const modern = createMcpHandler(makeServer, { legacy: "reject" });
  // In order of last use (a request moves its session to the end), so the first is the one to close.
  const sessions = new Map<string, { transport: McpStreamableHTTPServerTransport; used: number }>();
  const closeSession = (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    void session?.transport.close();
  };
  const legacy = async (request: Request): Promise<Response> => {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = sessions.get(id);
      if (!session) return sessionNotFound();
      session.used = Date.now();
      sessions.delete(id);
      sessions.set(id, session);
      return session.transport.handleRequest(request);
    }
    if (!(await mayOpenSession(request))) return sessionIdMissing();
    const server = makeServer();
    const transport: McpStreamableHTTPServerTransport = new McpStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        for (const oldest of sessions.keys()) {
          if (sessions.size < maxSessions) break;
          closeSession(oldest);
        }
        sessions.set(sessionId, { transport, used: Date.now() });
      },
      onsessionclosed: (sessionId) => void sessions.delete(sessionId),
    });
    transport.onclose = () => void (transport.sessionId && sessions.delete(transport.sessionId));
    await server.connect(transport);
    return transport.handleRequest(request);
  };
  const handler = toNodeHandler({
    fetch: async (request) => ((await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request)),
  });
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) if (now - session.used > idleMs) closeSession(id);
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();
  const http: HttpServer = createServer((req, res) => {
    if (!validHost(req, res) || !validOrigin(req, res)) return; // answered 403
    if (!req.url?.startsWith("/mcp")) return void res.writeHead(404).end();
    handler(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => http.listen(port, host, resolve));
  const { port: bound } = http.address() as AddressInfo;
  const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${bound}/mcp`,
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.transport.close()));
      await modern.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * Whether a request without a session id may start one: an `initialize`, or a body the transport refuses
 * itself (no JSON: Parse error; past the SDK's size limit, read no further than it: 413). Anything else
 * would reach a server that was never initialized ("Server not initialized", which misleads).
 */
async function mayOpenSession(request: Request): Promise<boolean> {
  if (request.method !== "POST") return false;
  const read = await readRequestBody(request.clone());
  if (read.tooLarge) return true;
  try {
    const body: unknown = JSON.parse(read.text);
    return Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
  } catch {
    return true;
  }
}

/** The Streamable HTTP answer to a request that needs a session and names none: 400, as the spec says. */
function sessionIdMissing(): Response {
  return Response.json(
    {
      jsonrpc: "2.0",
      error: { code: -32000, message: "Bad Request: Mcp-Session-Id header is required" },
      id: null,
    },
    { status: 400 },
  );
}

/** The Streamable HTTP answer to an unknown session id: 404, so the client starts a new session. */
function sessionNotFound(): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
    { status: 404 },
  );
}

async function main(argv: readonly string[]): Promise<void> {
  const http = argv.indexOf("--http");
  if (http >= 0) {
    const after = (flag: string) => argv.flatMap((a, i) => (a === flag && argv[i + 1] ? [argv[i + 1]!] : []));
    const port = argv[http + 1]?.startsWith("--") === false ? Number(argv[http + 1]) : 3333;
    const { url } = await serveHttp(port, {
      host: after("--host")[0],
      allowedHosts: after("--allowed-host"),
    });
    console.error(`MCP server "shop" listening on ${url}`);
    return;
  }
  // entity-tools' transport: it answers a line it cannot serve (the SDK's drops it without a word).
  serveStdio(() => shopServer(argv.includes("--dispatch")), { transport: new McpStdioServerTransport() });
}

// Started as a program (also through a symlink, which argv[1] keeps and import.meta.url resolves).
const launched = process.argv[1] ? pathToFileURL(realpathSync(process.argv[1])).href : "";
if (import.meta.url === launched) await main(process.argv.slice(2));
