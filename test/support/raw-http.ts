// An HTTP request with headers fetch() will not send as given (`Host`, which fetch sets from the URL), as
// a page that rebinds its name to 127.0.0.1 makes the browser send them.
import { request, type IncomingHttpHeaders } from "node:http";

/** What came back: the status, the headers and the body as text. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Sends one request to `url` with exactly `headers` (a `host` among them replaces the URL's) and `body`. */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Readonly<Record<string, string | undefined>>; body?: string } = {},
): Promise<RawResponse> {
  const headers = Object.fromEntries(
    Object.entries(options.headers ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The CORS headers of a response (`access-control-*`): none, from a server that must not share with other sites. */
export function corsHeaders(response: RawResponse): string[] {
  return Object.keys(response.headers).filter((name) => name.startsWith("access-control-"));
}
