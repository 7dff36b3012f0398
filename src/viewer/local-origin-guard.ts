// The one check that keeps a local server local (DNS rebinding): a page on another site can make the
// browser send requests to 127.0.0.1 under its own name, so a request is answered only when its `Host`
// names this server as the browser reaches it (127.0.0.1 or localhost, on its port) and its `Origin`, when
// the browser sends one, is this server's own. Nothing here adds CORS headers: no other origin may read.
import type { IncomingMessage } from "node:http";

/** The names a local server on `port` answers to (`Host` values), and its origins. */
export function localNames(port: number): {
  readonly hosts: readonly string[];
  readonly origins: readonly string[];
} {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  return { hosts, origins: hosts.map((h) => `http://${h}`) };
}

/** Why a request must be refused (undefined: it comes from this server's own page or a local client). */
export function foreignRequest(request: IncomingMessage, port: number): string | undefined {
  const { hosts, origins } = localNames(port);
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !hosts.includes(host))
    return `Host ${JSON.stringify(host ?? "")} is not this server`;
  const origin = request.headers.origin;
  if (origin !== undefined && !origins.includes(origin.toLowerCase()))
    return `Origin ${JSON.stringify(origin)} is not this server`;
  return undefined;
}
