// The viewer's server as an attacker or an unlucky user meets it: it listens on 127.0.0.1 only, takes a
// free port when its port is taken, refuses a foreign Host or Origin (DNS rebinding), sends no CORS header,
// and serves nothing outside the log folder, whatever the path says.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaExtensionOf } from "../../src/run-log/media-extensions.js";
import { startViewServer, type ViewServer } from "../../src/viewer/view-server.js";

const root = mkdtempSync(path.join(tmpdir(), "view-server-"));
const logs = path.join(root, "runs");
const RUN = "2026-11-27T10-00-00-000Z-aaaaaa.jsonl";
/** Media types a tool may return: each is written with its extension, and served as that type again. */
const TYPES = ["image/jpeg", "image/svg+xml", "audio/mpeg", "application/pdf", "text/plain", "video/x-odd"];
let viewer: ViewServer;
let port: number;

beforeAll(async () => {
  mkdirSync(path.join(logs, "2026-11-27T10-00-00-000Z-aaaaaa.media"), { recursive: true });
  writeFileSync(path.join(logs, RUN), '{"type":"run"}\n');
  writeFileSync(path.join(logs, "2026-11-27T10-00-00-000Z-aaaaaa.media", "1.png"), "png");
  for (const [i, type] of TYPES.entries())
    writeFileSync(
      path.join(logs, "2026-11-27T10-00-00-000Z-aaaaaa.media", `${i + 3}.${mediaExtensionOf(type)}`),
      type,
    );
  writeFileSync(path.join(root, "secret.jsonl"), "the neighbour's secret\n");
  writeFileSync(path.join(root, "secret.png"), "the neighbour's picture");
  symlinkSync(path.join(root, "secret.jsonl"), path.join(logs, "2026-11-27T11-00-00-000Z-link.jsonl"));
  symlinkSync(
    path.join(root, "secret.png"),
    path.join(logs, "2026-11-27T10-00-00-000Z-aaaaaa.media", "2.png"),
  );
  viewer = await startViewServer(logs, { port: 0 });
  port = (viewer.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await viewer.close();
  rmSync(root, { recursive: true, force: true });
});

/** A raw GET with the headers given (Host included), as a rebinding page's browser would send it. */
function get(pathname: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path: pathname, method, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("the viewer server", () => {
  it("listens on 127.0.0.1 only", () => {
    expect((viewer.server.address() as AddressInfo).address).toBe("127.0.0.1");
    expect(viewer.url).toBe(`http://127.0.0.1:${port}/`);
  });

  it("takes a free port when the one asked for is taken, and says which", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const busy = (taken.address() as AddressInfo).port;
    const second = await startViewServer(logs, { port: busy });
    try {
      expect(second.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(second.url).not.toContain(`:${busy}/`);
    } finally {
      await second.close();
      taken.close();
    }
  });

  it("refuses a foreign Host or Origin (DNS rebinding, another local server's page), and answers its own page and localhost", async () => {
    expect((await get("/api/runs", { Host: "evil.example" })).status).toBe(403);
    expect((await get("/api/runs", { Host: `evil.example:${port}` })).status).toBe(403);
    expect((await get("/api/runs", { Origin: "http://evil.example" })).status).toBe(403);
    expect((await get("/api/runs", { Origin: `http://evil.example:${port}` })).status).toBe(403);
    expect((await get("/api/runs", { Origin: "null" })).status).toBe(403);
    // Another local server's page (another port, another local name, https) is not its own either.
    expect((await get("/api/runs", { Origin: "http://localhost:9999" })).status).toBe(403);
    expect((await get("/api/runs", { Origin: `http://127.0.0.1:${port + 1}` })).status).toBe(403);
    expect((await get("/api/runs", { Origin: `http://localhost:${port}` })).status).toBe(403);
    expect((await get("/api/runs", { Origin: `https://127.0.0.1:${port}` })).status).toBe(403);
    expect((await get("/api/runs", { Origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect(
      (await get("/api/runs", { Host: `localhost:${port}`, Origin: `http://localhost:${port}` })).status,
    ).toBe(200);
    expect((await get("/api/runs", { Host: `localhost:${port}` })).status).toBe(200);
  });

  it("sends no CORS header on any answer, a refusal or a preflight included", async () => {
    const answers = await Promise.all([
      get("/"),
      get("/api/runs"),
      get("/api/runs", { Origin: "http://evil.example" }),
      get("/api/runs", { Origin: "http://evil.example", "Access-Control-Request-Method": "GET" }, "OPTIONS"),
      get(`/api/file?name=${RUN}`),
      get("/media/2026-11-27T10-00-00-000Z-aaaaaa.media/1.png"),
      get("/api/runs", {}, "OPTIONS"),
    ]);
    for (const answer of answers)
      expect(Object.keys(answer.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 403, 403, 200, 200, 405]);
  });

  it("serves nothing outside the log folder: no ../, no absolute path, no symbolic link out of it", async () => {
    const attempts = [
      "/api/file?name=../secret.jsonl",
      "/api/file?name=..%2Fsecret.jsonl",
      `/api/file?name=${encodeURIComponent(path.join(root, "secret.jsonl"))}`,
      "/api/file?name=2026-11-27T11-00-00-000Z-link.jsonl",
      "/media/..%2Fsecret.png",
      "/media/2026-11-27T10-00-00-000Z-aaaaaa.media/..%2F..%2Fsecret.png",
      "/media/2026-11-27T10-00-00-000Z-aaaaaa.media/2.png",
      "/media/%2e%2e/%2e%2e/secret.png",
      "/../secret.jsonl",
      "/media/2026-11-27T10-00-00-000Z-aaaaaa.media/%E0%A4%A",
    ];
    for (const attempt of attempts) {
      const answer = await get(attempt);
      expect(answer.status, attempt).toBe(404);
      expect(answer.body, attempt).not.toContain("neighbour");
    }
    const listed = JSON.parse((await get("/api/runs")).body) as { files: { name: string }[] };
    expect(listed.files.map((f) => f.name)).toEqual([RUN]);
    expect((await get("/media/2026-11-27T10-00-00-000Z-aaaaaa.media/1.png")).body).toBe("png");
  });

  it("reads a run from its start for an offset that is not a whole number of bytes, and goes on serving", async () => {
    for (const from of ["abc", "-5", "1.5", "1e400"]) {
      const answer = await get(`/api/file?name=${RUN}&from=${from}`);
      expect(answer.status, from).toBe(200);
      expect(answer.body, from).toBe('{"type":"run"}\n');
    }
    expect((await get(`/api/file?name=${RUN}&from=5`)).body).toBe('e":"run"}\n');
  });

  it("a read from an offset with the last read's check: what the file gained, or the whole file when the bytes before it changed (checked whole when asked)", async () => {
    const name = "2026-11-27T12-00-00-000Z-cccccc.jsonl";
    const file = path.join(logs, name);
    // Step 1's line is longer than the 16 KiB checked at every read.
    const step1 = `${JSON.stringify({ type: "step", step: 1, pad: "x".repeat(20_000) })}\n`;
    writeFileSync(file, `{"type":"run","id":"c"}\n${step1}`);
    const read = async (from: string | number, check = "", whole = false) => {
      const answer = await get(
        `/api/file?name=${name}&from=${from}&check=${encodeURIComponent(check)}${whole ? "&whole=1" : ""}`,
      );
      const header = (h: string) => answer.headers[h] as string;
      return {
        from: header("x-from-offset"),
        next: header("x-next-offset"),
        check: header("x-check"),
        ...answer,
      };
    };
    const first = await read(0);
    expect(first.from).toBe("0");
    appendFileSync(file, '{"type":"step","step":2}\n');
    const grown = await read(first.next, first.check);
    expect([grown.from, grown.body]).toEqual([first.next, '{"type":"step","step":2}\n']);

    writeFileSync(
      file,
      `{"type":"run","id":"c"}\n${step1.replace('"step":1', '"step":9')}{"type":"step","step":2}\n`,
    );
    expect((await read(grown.next, grown.check)).from).toBe(grown.next); // the last 16 KiB are the same
    const whole = await read(grown.next, grown.check, true);
    expect(whole.from).toBe("0");
    expect(whole.body).toContain('"step":9');
    expect(whole.headers["x-settled"]).toBe("false"); // written just now
  });

  it("lists no runs once its folder is removed, and does not end", async () => {
    const gone = mkdtempSync(path.join(tmpdir(), "view-server-gone-"));
    writeFileSync(path.join(gone, RUN), '{"type":"run"}\n');
    const other = await startViewServer(gone, { port: 0 });
    try {
      rmSync(gone, { recursive: true, force: true });
      const { port: otherPort } = other.server.address() as AddressInfo;
      const listed = await fetch(`http://127.0.0.1:${otherPort}/api/runs`);
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as { files: unknown[] }).files).toEqual([]);
      expect((await fetch(`http://127.0.0.1:${otherPort}/api/file?name=${RUN}`)).status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it("serves media with a policy that runs nothing in them", async () => {
    const answer = await get("/media/2026-11-27T10-00-00-000Z-aaaaaa.media/1.png");
    expect(answer.headers["content-type"]).toBe("image/png");
    expect(answer.headers["content-security-policy"]).toBe("sandbox; default-src 'none'");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("serves each media file as the type the run log wrote it for (an unknown type as bytes)", async () => {
    const served = await Promise.all(
      TYPES.map((type, i) =>
        get(`/media/2026-11-27T10-00-00-000Z-aaaaaa.media/${i + 3}.${mediaExtensionOf(type)}`),
      ),
    );
    expect(served.map((answer) => [answer.body, answer.headers["content-type"]])).toEqual([
      ["image/jpeg", "image/jpeg"],
      ["image/svg+xml", "image/svg+xml"],
      ["audio/mpeg", "audio/mpeg"],
      ["application/pdf", "application/pdf"],
      ["text/plain", "text/plain; charset=utf-8"],
      ["video/x-odd", "application/octet-stream"],
    ]);
  });
});
