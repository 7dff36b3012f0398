// examples/restate-agent on a real restate-server (npm @restatedev/restate-server, on 127.0.0.1): the
// service process dies in the middle of a run, is started again, and the run finishes from the journal,
// every completed tool call executed exactly once; the refund waits for an approval sent to the workflow.
// A process that dies inside the refund, after the money moved, does not move it again (idempotency
// key); a conversation kept in the Conversation virtual object goes on in a later turn.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConversationMismatchError } from "entity-tools";
import {
  RestateConversationStore,
  type ConversationObjectClient,
  type PutOutcome,
  type StoredText,
} from "../../examples/restate-agent/conversation-object.js";

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

/** The effect lines so far (refunds carry their idempotency key). */
const effectLines = (file: string) => readFileSync(file, "utf8").trim().split("\n");

describe("examples/restate-agent on restate-server", () => {
  const work = mkdtempSync(path.join(tmpdir(), "restate-"));
  dirs.push(work);
  const effects = path.join(work, "effects.log");
  let ingress = 0;
  let service = 0;
  let running: ReturnType<typeof start> | undefined;
  const serviceEnv = () => ({ PORT: String(service), EFFECTS_FILE: effects });
  const serviceArgs = ["--import", "tsx", "examples/restate-agent/service.ts"];
  const pendingOf = (run: string) =>
    until("the approval request", async () => {
      const calls = (await (await post(`http://127.0.0.1:${ingress}/AgentRun/${run}/pending`)).json()) as {
        approvalId: string;
        toolName: string;
      }[];
      return calls.length > 0 ? calls : undefined;
    });
  /** The example's store in this process, reaching the Conversation objects through the ingress. */
  const store = () => {
    const client: ConversationObjectClient = (id) => {
      const object = `http://127.0.0.1:${ingress}/Conversation/${encodeURIComponent(id)}`;
      return {
        get: async () => (await (await post(`${object}/get`)).json()) as StoredText | null,
        put: async (input) => (await (await post(`${object}/put`, input)).json()) as PutOutcome,
      };
    };
    return new RestateConversationStore(client);
  };
  const answerOf = (run: string) =>
    until("the answer", async () => {
      const response = await fetch(`http://127.0.0.1:${ingress}/restate/workflow/AgentRun/${run}/attach`);
      return response.ok ? ((await response.json()) as string) : undefined;
    });

  it("survives the service dying mid-run: each completed tool call ran once, and the approval resumes it", async () => {
    let admin: number;
    let node: number;
    [ingress, admin, node, service] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const binary = createRequire(import.meta.url).resolve(
      "@restatedev/restate-server-linux-x64/bin/restate-server",
    );
    start(binary, ["--no-logo"], {
      RESTATE_BASE_DIR: path.join(work, "data"),
      // Its invoker makes a folder in the temporary directory for each partition and leaves it there.
      TMPDIR: work,
      RESTATE_LISTEN_MODE: "tcp",
      RESTATE_DISABLE_TELEMETRY: "true",
      RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
      RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
      RESTATE_BIND_ADDRESS: `127.0.0.1:${node}`,
      RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${node}`,
      // Retry a failed invocation at least every half second (the default starts at 0.5 s and doubles up
      // to a minute), so a restarted service is reached soon after it listens, not at the next doubling.
      // (`restate-server --dump-config` shows these under [default-retry-policy].)
      RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL: "100ms",
      RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: "500ms",
      RESTATE_DEFAULT_RETRY_POLICY__MAX_ATTEMPTS: "600",
    });
    await until("restate-server", async () =>
      (await fetch(`http://127.0.0.1:${ingress}/restate/health`)).ok ? true : undefined,
    );
    // The first process dies just before model step 3: two tool calls have run and are journaled.
    const first = start(process.execPath, serviceArgs, { ...serviceEnv(), CRASH_BEFORE_STEP: "3" });
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
    running = start(process.execPath, serviceArgs, serviceEnv());
    const pending = await pendingOf("run-1");
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
    expect(await answerOf("run-1")).toBe("Refunded 20 to Ada; the balance is now 100.");
    expect(effectLines(effects)).toEqual([
      "find ada@example.com",
      "balance a-1",
      "refund a-1 20 [key run-1/step-3]",
    ]);
  }, 120_000);

  it("a crash inside the refund after the money moved: the retried call carries the same idempotency key, and the money moves once", async () => {
    running?.child.kill("SIGKILL");
    await running?.exited;
    const before = effectLines(effects).length;
    // This process dies inside the refund, right after the payment: the call's result is not journaled.
    const crashing = start(process.execPath, serviceArgs, { ...serviceEnv(), CRASH_AFTER_EFFECT: "refund" });
    const started = await until("the restarted service", async () => {
      const response = await post(`http://127.0.0.1:${ingress}/AgentRun/run-2/run/send`, {
        prompt: "Refund Ada 20",
        conversationId: "ada",
      });
      return response.ok ? true : undefined;
    });
    expect(started).toBe(true);
    const [pending] = await pendingOf("run-2");
    await post(`http://127.0.0.1:${ingress}/AgentRun/run-2/approve`, {
      approvalId: pending!.approvalId,
      approved: true,
    });
    expect(await crashing.exited).toBe(1);
    expect(effectLines(effects).slice(before)).toEqual([
      "find ada@example.com",
      "balance a-1",
      "refund a-1 20 [key run-2/step-3]",
    ]);
    running = start(process.execPath, serviceArgs, serviceEnv()); // Restate retries the refund call here
    expect(await answerOf("run-2")).toBe("Refunded 20 to Ada; the balance is now 100.");
    expect(
      effectLines(effects)
        .slice(before)
        .filter((l) => l.startsWith("refund")),
    ).toEqual(["refund a-1 20 [key run-2/step-3]"]);
  }, 120_000);

  it("a conversation kept in the Conversation virtual object: the next turn calls the account's tool found in the first, without finding it again", async () => {
    const before = effectLines(effects).length;
    await post(`http://127.0.0.1:${ingress}/AgentRun/run-3/run/send`, {
      prompt: "What is Ada's balance now?",
      conversationId: "ada",
    });
    expect(await answerOf("run-3")).toMatch(/^Ada's balance is \d+\.$/);
    expect(effectLines(effects).slice(before)).toEqual(["balance a-1"]); // no "find": still bound
    const stored = await store().get("ada");
    expect(stored?.version).toBe(4); // each turn claimed (the first too: a new id is claimed), then saved
    expect(stored?.snapshot?.history.filter((m) => m.role === "user")).toHaveLength(2);
  }, 60_000);

  it("N14 the Conversation object's store refuses conversation ada's snapshot put under another id, as every store does, and writes nothing", async () => {
    const ada = (await store().get("ada"))!.snapshot!;
    expect(ada.conversationId).toBe("ada");
    const error = await store()
      .put("ann", ada, undefined)
      .catch((e: unknown) => e);
    expect(ConversationMismatchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ at: "save" });
    expect(await store().get("ann")).toBeUndefined();
  }, 30_000);
});
