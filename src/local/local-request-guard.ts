// A local HTTP server (a chat page, a run-log viewer) answers whoever reaches its port, and a web page on
// another site can: by DNS rebinding (its own name resolved to 127.0.0.1, so the browser sends
// `Host: evil.example`) or by a cross-site request (`Origin: http://evil.example`). This guard answers
// both with 403 before the server does anything. Its rules are the MCP SDK's host and origin validation
// (`@modelcontextprotocol/node`: names compared without the port, a missing `Origin` allowed since only
// browsers send one, an unreadable or `null` one refused), so every server we ship refuses the same
// requests; it is our own so that servers without the MCP SDK need no dependency. With `sameOrigin` an
// `Origin` must also be the server's own, port included (the run viewer: its pages are its only clients).
import type { IncomingMessage, ServerResponse } from "node:http";
import { InvalidSettingError } from "../errors/entity-tools-error.js";

/** The names every local server answers: its loopback addresses, and `localhost`. */
export const LOCAL_HOST_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** Options of {@link localRequestGuard}. */
export interface LocalRequestGuardOptions {
  /**
   * More names the server answers, besides {@link LOCAL_HOST_NAMES}: the names and addresses users reach
   * it by when it listens on another interface on purpose (`["chat.internal", "192.168.1.20"]`). Host
   * names only, no scheme or port; an IPv6 address in brackets (`[fd00::1]`).
   */
  readonly allowedHosts?: readonly string[] | undefined;
  /**
   * Refuse an `Origin` that is not this server's own: its scheme, name and port must be those the
   * request's `Host` names (a page of another local server, `http://localhost:3000`, is refused too, not
   * only a page of another site). For a server whose only browser clients are its own pages (the run
   * viewer): a browser sends no `Origin` on their requests. Leave it off for a server that pages served
   * elsewhere use on purpose (an MCP server and the MCP Inspector's page). Default false.
   */
  readonly sameOrigin?: boolean | undefined;
}

/**
 * A request guard for a `node:http` server on the user's machine, against DNS rebinding and cross-site
 * requests: call it first in the request handler; when the request's `Host` is not an allowed name, or
 * its `Origin` (sent by browsers) names a host that is not, it answers 403 with `{ "error": "…" }` and
 * returns false, and the handler stops. It adds no CORS headers, and the server should add none.
 *
 * ```ts
 * const guard = localRequestGuard({ allowedHosts: ["chat.internal"] });
 * createServer((req, res) => {
 *   if (!guard(req, res)) return;
 *   // … serve
 * });
 * ```
 *
 * @throws InvalidSettingError for an allowed host with a scheme, a port, a path or spaces
 */
export function localRequestGuard(
  options: LocalRequestGuardOptions = {},
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const allowed = new Set(LOCAL_HOST_NAMES);
  for (const name of options.allowedHosts ?? []) {
    // As a browser sends it: lower case, an international name in punycode.
    const host = /:\d*$/.test(name) ? undefined : hostnameOf(name);
    if (host === undefined)
      throw new InvalidSettingError(
        "localRequestGuard allowedHosts",
        name,
        "a host name or address without scheme or port (an IPv6 address in brackets)",
      );
    allowed.add(host);
  }
  const names = [...allowed].join(", ");
  return (req, res) => {
    const refusal = refusalOf(req, allowed, options.sameOrigin === true);
    if (refusal === undefined) return true;
    res.writeHead(403, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        error:
          `Refused: this server answers requests for ${names} only, and ${refusal}. A page of another site ` +
          "cannot use it; to serve it under another name on purpose, add the name to its allowed hosts.",
      }),
    );
    return false;
  };
}

/** Why the request is refused, or undefined when it may go on. */
function refusalOf(
  req: IncomingMessage,
  allowed: ReadonlySet<string>,
  sameOrigin: boolean,
): string | undefined {
  const host = hostnameOf(req.headers.host ?? "");
  if (host === undefined || !allowed.has(host))
    return `this one was sent to ${JSON.stringify(req.headers.host ?? "")} (Host)`;
  const origin = req.headers.origin;
  if (origin === undefined || origin === "") return undefined;
  let from: URL | undefined;
  try {
    from = new URL(origin);
  } catch {
    from = undefined;
  }
  const refused = `this one came from a page of ${JSON.stringify(origin)} (Origin)`;
  if (!from?.hostname || !allowed.has(from.hostname)) return refused;
  // (`origin` normalizes both alike: lower case, the scheme's default port left out)
  if (sameOrigin && from.origin !== new URL(`http://${req.headers.host ?? ""}`).origin) return refused;
  return undefined;
}

/** The host name of a `Host` header value (port dropped, lower case), or undefined when it is not one. */
function hostnameOf(host: string): string | undefined {
  if (host === "" || /[\s/?#@\\]/.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname || undefined;
  } catch {
    return undefined;
  }
}
