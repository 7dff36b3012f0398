// What the local stand-ins for model APIs share: a server on 127.0.0.1 (a free port) that refuses a
// foreign Host or Origin (a page of another site never reads the script), the request body as text, and
// a close that does not wait for kept-alive connections.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { localRequestGuard } from "../local/local-request-guard.js";

/** A started local server: its origin (`http://127.0.0.1:<port>`) and how to stop it. */
export interface LocalHttpServer {
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves `handle` on 127.0.0.1 at a free port, behind the local request guard. */
export async function startLocalHttpServer(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<LocalHttpServer> {
  const guard = localRequestGuard();
  const server = createServer((req, res) => {
    if (!guard(req, res)) return;
    readBody(req).then(
      (body) => handle(req, res, body),
      () => res.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The whole body of a request, as text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (data += chunk));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}
