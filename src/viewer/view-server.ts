// `entity-tools view <dir-or-file>`: a few lines of node:http on 127.0.0.1 that serve the page, the run
// files of one folder (through LogFolder's jail) and a stream of "something changed" events, so a run
// still going grows on the open page. Requests whose Host or Origin is not this machine's are refused (the
// one guard of every local server we ship, src/local/local-request-guard.ts), and no response carries a
// CORS header.
import { watch, type FSWatcher } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { localRequestGuard } from "../local/local-request-guard.js";
import { openRegularFile } from "../local/regular-file.js";
import { mediaTypeOfFile } from "../run-log/media-extensions.js";
import { LogFolder, type LogFolderOptions } from "./log-folder.js";
import { RunsSoFar } from "./runs-so-far.js";
import { pageAssets } from "./page-assets.js";
import { SERVED_CSP, servedPage } from "./page-html.js";

/** The port the viewer tries first; when it is taken, any free port. */
export const DEFAULT_VIEW_PORT = 4780;

/** A running viewer. */
export interface ViewServer {
  /** The page's address (`http://127.0.0.1:<port>/`). */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * Serves the page for the run logs at `target` (a folder, or one file) on 127.0.0.1, on `port` (default
 * {@link DEFAULT_VIEW_PORT}) or a free port when that one is taken; `readLimit`, the most one read of a
 * run file holds (tests set it).
 *
 * @throws Error when `target` does not exist, cannot be read, or is not a run log
 */
export async function startViewServer(
  target: string,
  options: { port?: number } & Pick<LogFolderOptions, "readLimit"> = {},
): Promise<ViewServer> {
  const folder = LogFolder.open(
    target,
    options.readLimit === undefined ? {} : { readLimit: options.readLimit },
  );
  const runs = new RunsSoFar(folder);
  const assets = await pageAssets();
  const page = servedPage(assets);
  const listeners = new Set<ServerResponse>();
  // Its own pages are its only browser clients: a page of another local server is refused too.
  const guard = localRequestGuard({ sameOrigin: true });
  const answer = (request: IncomingMessage, response: ServerResponse): void => {
    if (!guard(request, response)) return;
    if (request.method !== "GET" && request.method !== "HEAD")
      return send(response, 405, "text/plain; charset=utf-8", "Only GET and HEAD.");
    const url = new URL(request.url ?? "/", "http://localhost");
    switch (url.pathname) {
      case "/":
        return send(response, 200, "text/html; charset=utf-8", page, {
          "Content-Security-Policy": SERVED_CSP,
        });
      case "/viewer.js":
        return send(response, 200, "text/javascript; charset=utf-8", assets.js);
      case "/viewer.css":
        return send(response, 200, "text/css; charset=utf-8", assets.css);
      case "/api/runs":
        return send(
          response,
          200,
          "application/json",
          JSON.stringify({ source: target, files: runs.list() }),
        );
      case "/api/file": {
        const { searchParams: query } = url;
        const read = folder.read(query.get("name") ?? "", Number(query.get("from") ?? 0), {
          ...(query.has("check") ? { check: query.get("check")! } : {}),
          whole: query.get("whole") === "1",
        });
        if (!read) return notFound(response);
        return send(response, 200, "text/plain; charset=utf-8", read.text, {
          "X-From-Offset": String(read.from),
          "X-Next-Offset": String(read.next),
          "X-Check": read.check,
          "X-Settled": String(read.settled),
          "X-Head-Hash": read.headHash,
        });
      }
      case "/api/events":
        return listen(request, response, listeners);
      default:
        return void media(request, response, folder, url.pathname).catch(() => response.destroy());
    }
  };
  const server = createServer((request, response) => {
    try {
      answer(request, response);
    } catch {
      // A file removed between its check and its read, or any other surprise: this request fails, the
      // viewer goes on (a throw here would end the process).
      if (!response.headersSent) send(response, 500, "text/plain; charset=utf-8", "Could not read it.");
      else response.destroy();
    }
  });
  const port = await bind(server, options.port ?? DEFAULT_VIEW_PORT);
  const stopWatching = watchFolder(folder, () => {
    for (const listener of listeners) listener.write("data: change\n\n");
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        stopWatching();
        for (const listener of listeners) listener.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { ...safeHeaders(type), "Content-Length": Buffer.byteLength(body), ...headers });
  response.end(response.req.method === "HEAD" ? undefined : body);
}

function notFound(response: ServerResponse): void {
  send(response, 404, "text/plain; charset=utf-8", "Not found.");
}

/** Headers of every response: no sniffing, no caching, no framing, no referrer; never a CORS header. */
function safeHeaders(type: string): Record<string, string> {
  return {
    "Content-Type": type,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
  };
}

/**
 * A media file of a run, with a policy that runs nothing it holds (an SVG opened on its own). It is opened
 * before anything is answered: one that cannot be read (no permission, or a FIFO put in its place) is a
 * 404, as a missing one is, and the page names it where its picture would be.
 */
async function media(
  request: IncomingMessage,
  response: ServerResponse,
  folder: LogFolder,
  pathname: string,
): Promise<void> {
  if (!pathname.startsWith("/media/")) return notFound(response);
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice("/media/".length));
  } catch {
    return notFound(response);
  }
  const file = folder.mediaFile(relative);
  const opened = file === undefined ? undefined : await openRegularFile(file).catch(() => undefined);
  if (!file || !opened) return notFound(response);
  const type = mediaTypeOfFile(file) ?? "application/octet-stream";
  const served = type === "text/plain" ? "text/plain; charset=utf-8" : type;
  response.writeHead(200, {
    ...safeHeaders(served),
    "Content-Security-Policy": "sandbox; default-src 'none'",
  });
  if (request.method === "HEAD") {
    await opened.handle.close();
    return void response.end();
  }
  opened.handle
    .createReadStream()
    .on("error", () => response.destroy())
    .pipe(response);
}

/** A server-sent event stream: "change" whenever the folder changes. */
function listen(request: IncomingMessage, response: ServerResponse, listeners: Set<ServerResponse>): void {
  response.writeHead(200, safeHeaders("text/event-stream"));
  response.write("retry: 1000\n\n");
  listeners.add(response);
  const ping = setInterval(() => response.write(": ping\n\n"), 20_000);
  request.on("close", () => {
    clearInterval(ping);
    listeners.delete(response);
  });
}

/** Calls `changed` (at most every 100 ms) when the folder changes: file events, with a slow poll as a fallback. */
function watchFolder(folder: LogFolder, changed: () => void): () => void {
  let pending: NodeJS.Timeout | undefined;
  const soon = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      changed();
    }, 100);
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(folder.root, soon);
    watcher.on("error", () => undefined);
  } catch {
    watcher = undefined; // no file events here (some network file systems): the poll below tells
  }
  let last = folder.signature();
  const poll = setInterval(() => {
    const now = folder.signature();
    if (now !== last) soon();
    last = now;
  }, 2_000);
  poll.unref();
  return () => {
    watcher?.close();
    clearInterval(poll);
    if (pending) clearTimeout(pending);
  };
}

/** Listens on 127.0.0.1 at `port`, or on a free port when it is taken; the port listened on. */
async function bind(server: Server, port: number): Promise<number> {
  const attempt = (p: number) =>
    new Promise<number>((resolve, reject) => {
      const fail = (error: Error) => reject(error);
      server.once("error", fail);
      server.listen(p, "127.0.0.1", () => {
        server.off("error", fail);
        resolve((server.address() as AddressInfo).port);
      });
    });
  try {
    return await attempt(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || port === 0) throw error;
    return attempt(0);
  }
}
