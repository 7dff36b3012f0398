// A real PostgreSQL server for tests: Debian's `postgresql` package (which .ci/run installs when missing),
// started here on 127.0.0.1 with a free port and a temporary data directory, and stopped by the test.
// Run as root (CI, this machine), the server runs as the `postgres` user, since PostgreSQL refuses root.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

/** A running server (or one stopped by the test, to be started again on the same port and data). */
export interface PostgresServer {
  /** postgres://… of the `postgres` database. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (fast shutdown: connections are cut), keeping its data. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  remove(): Promise<void>;
}

/** The directory of initdb and postgres, or undefined when PostgreSQL is not installed. */
export function postgresBinaries(): string | undefined {
  const onPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  if (onPath) return path.dirname(onPath);
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  const found = versions
    .map((v) => path.join(root, v, "bin"))
    .find((d) => existsSync(path.join(d, "initdb")));
  return found;
}

const BIN = postgresBinaries();
/** Whether the tests can start a server; when not, they are skipped with this warning. */
export const postgresPresent = BIN !== undefined;
if (!postgresPresent)
  console.warn("PostgreSQL tests skipped: no initdb (apt-get install postgresql; .ci/run does)");

/** The `postgres` user's ids when we are root (PostgreSQL will not run as root), else nothing. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  if (!line) throw new Error("running as root and there is no postgres user to run PostgreSQL as");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * initdb into a temporary directory, then a server on a free port; ready to take connections. Tests run
 * it with `fsync` off (faster; a test never survives a power cut); the bench with `{ fsync: true }`.
 */
export async function startPostgres(options: { fsync?: boolean } = {}): Promise<PostgresServer> {
  if (!BIN) throw new Error("PostgreSQL is not installed");
  const user = runAs();
  const dir = mkdtempSync(path.join(tmpdir(), "entity-tools-pg-"));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, "data");
  const init = spawnSync(
    path.join(BIN, "initdb"),
    ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"],
    { ...user, encoding: "utf8", cwd: dir },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);

  let port = 0;
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      port ||= await freePort();
      child = spawn(
        path.join(BIN, "postgres"),
        ["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1"].concat([
          "-c",
          `fsync=${options.fsync ? "on" : "off"}`,
          "-c",
          "max_connections=300",
          "-c",
          "shared_buffers=16MB",
        ]),
        { ...user, cwd: dir, stdio: ["ignore", "ignore", "pipe"] },
      );
      let log = "";
      child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child!.once("exit", resolve));
      if (await ready(port, exited)) return;
      if (attempt >= 3 || !/could not bind|Address already in use/.test(log))
        throw new Error(`postgres did not start: ${log}`);
      port = 0; // another process took the port meanwhile: try another one
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGINT"); // fast shutdown
    await exited;
  };
  await launch();
  return {
    get url() {
      return `postgres://postgres@127.0.0.1:${port}/postgres`;
    },
    get port() {
      return port;
    },
    stop,
    start: launch,
    remove: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls until the server answers a query (true) or its process ends (false). */
async function ready(port: number, exited: Promise<number | null>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) return false;
    const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres" });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      return true;
    } catch {
      await client.end().catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
