// examples/restate-agent on a real restate-server (npm @restatedev/restate-server, on 127.0.0.1): the
// service process dies in the middle of a run, is started again, and the run finishes from the journal,
// every completed tool call executed exactly once; the refund waits for an approval sent to the workflow.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const processes: ChildProcess[] = [];
const dirs: string[] = [];

/** A port free on 127.0.0.1 right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts a process; `exited` settles with its exit code (listened for now, so an early exit is not missed). */
function start(command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: "ignore" });
  processes.push(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, exited };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const post = (url: string, body?: unknown) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

afterAll(() => {
  for (const child of processes) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("examples/restate-agent on restate-server", () => {
  it("survives the service dying mid-run: each completed tool call ran once, and the approval resumes it", async () => {
    const work = mkdtempSync(path.join(tmpdir(), "restate-"));
    dirs.push(work);
    const effects = path.join(work, "effects.log");
    const [ingress, admin, node, service] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const binary = createRequire(import.meta.url).resolve(
      "@restatedev/restate-server-linux-x64/bin/restate-server",
    );
    start(binary, ["--no-logo"], {
      RESTATE_BASE_DIR: path.join(work, "data"),
      RESTATE_LISTEN_MODE: "tcp",
      RESTATE_DISABLE_TELEMETRY: "true",
      RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
      RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
      RESTATE_BIND_ADDRESS: `127.0.0.1:${node}`,
      RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${node}`,
    });
    await until("restate-server", async () =>
      (await fetch(`http://127.0.0.1:${ingress}/restate/health`)).ok ? true : undefined,
    );
    const serviceEnv = { PORT: String(service), EFFECTS_FILE: effects };
    const serviceArgs = ["--import", "tsx", "examples/restate-agent/service.ts"];
    // The first process dies just before model step 3: two tool calls have run and are journaled.
    const first = start(process.execPath, serviceArgs, { ...serviceEnv, CRASH_BEFORE_STEP: "3" });
    await until("the service", async () =>
      (await post(`http://127.0.0.1:${admin}/deployments`, { uri: `http://127.0.0.1:${service}` })).ok
        ? true
        : undefined,
    );
    const started = await post(`http://127.0.0.1:${ingress}/AgentRun/run-1/run/send`, {
      prompt: "Refund Ada 20",
    });
    expect(started.ok).toBe(true);
    expect(await first.exited).toBe(1);
    expect(readFileSync(effects, "utf8").trim().split("\n")).toEqual(["find ada@example.com", "balance a-1"]);

    // A new process on the same address: Restate retries the run, which replays its journal.
    start(process.execPath, serviceArgs, serviceEnv);
    const pending = await until("the approval request", async () => {
      const calls = (await (await post(`http://127.0.0.1:${ingress}/AgentRun/run-1/pending`)).json()) as {
        approvalId: string;
        toolName: string;
      }[];
      return calls.length > 0 ? calls : undefined;
    });
    expect(pending).toEqual([
      {
        approvalId: "step-3",
        toolName: "account_a-1_refund",
        input: { amount: 20 },
        provider: { providerClass: "Account", id: "a-1", idType: "string", method: "refund" },
      },
    ]);
    expect(readFileSync(effects, "utf8").trim().split("\n")).toHaveLength(2); // nothing ran again

    expect(
      (
        await post(`http://127.0.0.1:${ingress}/AgentRun/run-1/approve`, {
          approvalId: "step-3",
          approved: true,
        })
      ).ok,
    ).toBe(true);
    const answer = await until("the answer", async () => {
      const response = await fetch(`http://127.0.0.1:${ingress}/restate/workflow/AgentRun/run-1/attach`);
      return response.ok ? ((await response.json()) as string) : undefined;
    });
    expect(answer).toBe("Refunded 20 to Ada; the balance is now 100.");
    expect(readFileSync(effects, "utf8").trim().split("\n")).toEqual([
      "find ada@example.com",
      "balance a-1",
      "refund a-1 20",
    ]);
  }, 120_000);
});
