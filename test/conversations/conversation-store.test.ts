// ConversationStore: get/put by conversation id with an optimistic version, in memory (the testing kit)
// and in files (the embedded default, which survives a restart); and a stored conversation's turn, which
// claims the conversation before anything runs, so a paused run is never resumed twice.
import { randomUUID } from "node:crypto";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ModelMessage } from "ai";
import { afterAll, describe, expect, it } from "vitest";
import {
  ConversationConflictError,
  ConversationMismatchError,
  ConversationStoreUnavailableError,
  EntityToolsError,
  FileConversationStore,
  StoredConversationUnreadableError,
  beginConversationTurn,
  defineTool,
  type ConversationStore,
  type RunSnapshot,
  type StoredConversation,
} from "entity-tools";
import { FakePromptRunner, InMemoryConversationStore } from "entity-tools/testing";
import { child, conversationStoreContract, snapshotSaying } from "../support/conversation-store-contract.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "conversations-"));
  dirs.push(dir);
  return dir;
}

conversationStoreContract("InMemoryConversationStore", {
  make: (options) => new InMemoryConversationStore(options),
});
conversationStoreContract("FileConversationStore", {
  make: (options) => new FileConversationStore(scratch(), options),
  sameAs: (store, options) => new FileConversationStore((store as FileConversationStore).directory, options),
  spec: (store) => ({ kind: "file", directory: (store as FileConversationStore).directory }),
});

// procfs answers ENOENT to a mkdir whose parent exists, where Node's recursive mkdir never settles.
it.runIf(process.platform === "linux")(
  "a FileConversationStore its folder cannot be made in: the turn is refused as the store being unavailable, naming it, not hangs",
  async () => {
    const store = new FileConversationStore("/proc/entity-tools-store");
    for (const attempt of [
      () => store.put("c1", undefined, undefined),
      () => beginConversationTurn(store, "c1"),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConversationStoreUnavailableError);
      expect((error as Error).message).toMatch(
        /^The conversation store \(files in \/proc\/entity-tools-store\) is unavailable: ENOENT.*\. Nothing was written; retry when it is back\.$/,
      );
    }
  },
);

describe("FileConversationStore after a crash", () => {
  it("a stored file cut short (a crash, a full disk): get and the next turn reject with an EntityToolsError naming the conversation and what to do", async () => {
    const dir = scratch();
    const store = new FileConversationStore(dir);
    await store.put("chat-7", snapshotSaying("one"), undefined);
    const folder = path.join(dir, Buffer.from("chat-7").toString("base64url"));
    const file = path.join(folder, "000000000001.json");
    writeFileSync(file, readFileSync(file, "utf8").slice(0, 20));
    const error = await store.get("chat-7").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoredConversationUnreadableError);
    expect(error).toBeInstanceOf(EntityToolsError);
    expect((error as Error).message).toMatch(
      /^Conversation "chat-7" cannot be read: the file .*000000000001\.json is not a stored conversation \(.*JSON.*\)\. Restore it from a backup, or delete it to start the conversation over\.$/,
    );
    await expect(beginConversationTurn(store, "chat-7")).rejects.toThrow(StoredConversationUnreadableError);
  });

  it("a conversation stored with another conversation's snapshot (kept before puts refused one): its next turn is refused at its start, nothing written", async () => {
    const dir = scratch();
    const store = new FileConversationStore(dir);
    await store.put("ann", snapshotSaying("I am Ann"), undefined);
    const file = path.join(dir, Buffer.from("ann").toString("base64url"), "000000000001.json");
    writeFileSync(file, JSON.stringify({ ...snapshotSaying("I am Bob"), conversationId: "bob" }));
    const refused = await beginConversationTurn(store, "ann").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConversationMismatchError);
    expect(refused).toMatchObject({ conversationId: "ann", snapshotConversationId: "bob", at: "start" });
    expect((refused as Error).message).toContain("this turn did not start (nothing ran)");
    expect((await store.get("ann"))?.version).toBe(1);
  });

  it("on its first use the store removes the temporary files a crashed writer left (old ones only)", async () => {
    const dir = scratch();
    await new FileConversationStore(dir).put("c-1", snapshotSaying("one"), undefined);
    const folder = path.join(dir, Buffer.from("c-1").toString("base64url"));
    const stale = path.join(folder, `.${randomUUID()}.tmp`);
    const live = path.join(folder, `.${randomUUID()}.tmp`); // another process writing right now
    writeFileSync(stale, "{half");
    writeFileSync(live, "{half");
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(stale, hourAgo, hourAgo);
    const reopened = new FileConversationStore(dir);
    expect((await reopened.get("c-1"))?.version).toBe(1);
    expect(readdirSync(folder).sort()).toEqual([path.basename(live), "000000000001.json"].sort());
  });
});

/** Every folder and file under `root` with its permission bits, relative to `root`. */
function modes(root: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const name = path.relative(root, full);
      found[entry.isDirectory() ? `${name}/` : name] = (statSync(full).mode & 0o777).toString(8);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(root);
  return found;
}

describe.skipIf(process.platform === "win32")("FileConversationStore: for its owner only", () => {
  it("under umask 022 every folder is 0700 and every file 0600 (versions, a claim, its lease)", async () => {
    const root = scratch();
    const directory = path.join(root, "state", "conversations"); // made by the store, parents too
    const spec = { kind: "file", directory } as const;
    const writer = await child(["write", JSON.stringify(spec), "words"], "written");
    await writer.exited;
    const folder = Buffer.from("words").toString("base64url");
    expect(modes(root)).toEqual({
      "state/": "700",
      "state/conversations/": "700",
      [`state/conversations/${folder}/`]: "700",
      [`state/conversations/${folder}/000000000001.json`]: "600",
      [`state/conversations/${folder}/000000000002.json`]: "600",
      [`state/conversations/${folder}/000000000002.lease`]: "600",
    });
  });

  it("a directory others may enter (an older version's, or made by hand): one warning naming it and the fix; its mode is left alone", async () => {
    const directory = path.join(scratch(), "shared");
    mkdirSync(directory);
    chmodSync(directory, 0o755);
    const warnings: Error[] = [];
    const listen = (warning: Error) => warnings.push(warning);
    process.on("warning", listen);
    try {
      await new FileConversationStore(directory).put("c-1", snapshotSaying("one"), undefined);
      await new FileConversationStore(directory).get("c-1"); // once per folder and process
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", listen);
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      code: "ENTITY_TOOLS_SHARED_FOLDER",
      message: `${directory} holds stored conversations and other users of this machine may read it (mode 755). Run \`chmod 700 '${directory}'\` to make it yours only (new folders and files are made that way already).`,
    });
    expect(statSync(directory).mode & 0o777).toBe(0o755);
    const folder = path.join(directory, Buffer.from("c-1").toString("base64url"));
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });
});

describe("a stored conversation's turn", () => {
  it("a store of your own that keeps whatever it is given: a turn's save still refuses another conversation's snapshot", async () => {
    const kept = new Map<string, StoredConversation>();
    const naive: ConversationStore = {
      get: async (id) => kept.get(id),
      put: async (id, snapshot, _expectedVersion, busyUntil) => {
        const version = (kept.get(id)?.version ?? 0) + 1;
        kept.set(id, { snapshot, version, busyUntil });
        return version;
      },
    };
    const of = (id: string, text: string) => ({ ...snapshotSaying(text), conversationId: id }) as RunSnapshot;
    await naive.put("ann", of("ann", "I am Ann"), undefined);
    const turn = await beginConversationTurn(naive, "ann");
    await expect(turn.save(of("bob", "I am Bob"))).rejects.toBeInstanceOf(ConversationMismatchError);
    expect(kept.get("ann")).toMatchObject({ snapshot: of("ann", "I am Ann"), busyUntil: undefined });
  });

  it.each([0, -1, Number.NaN, Infinity])(
    "a turn's leaseMs of %s is refused before the store is touched",
    async (leaseMs) => {
      const store = new InMemoryConversationStore();
      await expect(beginConversationTurn(store, "c-1", { leaseMs })).rejects.toThrow(
        /^beginConversationTurn leaseMs must be a positive number of ms, got /,
      );
      expect(await store.get("c-1")).toBeUndefined();
    },
  );

  const effects: string[] = [];
  const refund = defineTool({
    name: "refund",
    description: "Refund the order",
    needsApproval: true,
    execute: () => {
      effects.push("refund");
      return "refunded";
    },
  });

  it("a paused run resumed twice at once: one resume runs the approved call, the other is refused before anything runs", async () => {
    effects.length = 0;
    const store = new InMemoryConversationStore();
    const fake = new FakePromptRunner();
    fake.callTool("refund").respondWithText("Refunded.").respondWithText("Refunded.");
    const runner = fake.withTools(refund);
    const first = await beginConversationTurn(store, "c-1");
    const paused = await runner.run("Refund my order");
    await first.save(paused.snapshot);

    const resumeOnce = async () => {
      const turn = await beginConversationTurn(store, "c-1");
      const run = await runner.resume(turn.snapshot!, {
        approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
      });
      await turn.save(run.snapshot);
      return run.result;
    };
    const outcomes = await Promise.allSettled([resumeOnce(), resumeOnce()]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(outcomes.find((o) => o.status === "rejected")).toMatchObject({
      reason: expect.any(ConversationConflictError),
    });
    expect(effects).toEqual(["refund"]);
    // A second resume later finds the conversation past the approval: nothing waits any more.
    const later = await beginConversationTurn(store, "c-1");
    expect(later.snapshot?.paused).toBeUndefined();
    await later.release();
  });

  const textOf = (m: ModelMessage) =>
    typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join("");

  it("a new conversation starts with no snapshot; its turns continue one another", async () => {
    const store = new FileConversationStore(scratch());
    const fake = new FakePromptRunner();
    fake.respondWithText("Hello.").respondWithText("Still here.");
    const turn1 = await beginConversationTurn(store, "chat-9");
    expect(turn1.snapshot).toBeUndefined();
    await turn1.save((await fake.run("Hi")).snapshot);
    const turn2 = await beginConversationTurn(new FileConversationStore(store.directory), "chat-9");
    const run = await fake.run("Are you there?", { continueFrom: turn2.snapshot });
    await turn2.save(run.snapshot);
    const said = run.conversationHistory.map(textOf);
    expect(said).toEqual(["Hi", "Hello.", "Are you there?", "Still here."]);
    expect((await store.get("chat-9"))?.version).toBe(4); // each turn's claim and save
  });

  it("a turn ended in a finally (release after save, as the docs say): the next turn's model reads every saved turn", async () => {
    for (const store of [new InMemoryConversationStore(), new FileConversationStore(scratch())]) {
      const fake = new FakePromptRunner();
      fake.respondWithText("Hello.").respondWithText("Still here.").respondWithText("Yes.");
      const said: string[][] = [];
      for (const prompt of ["Hi", "Are you there?", "Sure?"]) {
        const turn = await beginConversationTurn(store, "c-1");
        try {
          const run = await fake.run(prompt, { continueFrom: turn.snapshot });
          await turn.save(run.snapshot);
          said.push(run.conversationHistory.map(textOf));
        } finally {
          await turn.release();
        }
      }
      expect(said.at(-1)).toEqual(["Hi", "Hello.", "Are you there?", "Still here.", "Sure?", "Yes."]);
      expect((await store.get("c-1"))?.snapshot?.history.map(textOf)).toEqual(said.at(-1));
    }
  });

  /** A turn whose lease ran out, and the next turn that took the conversation over and saved. */
  async function takenOver() {
    const store = new InMemoryConversationStore();
    const start = Date.now();
    const stalled = await beginConversationTurn(store, "c-1", { leaseMs: 100, clock: () => start });
    const next = await beginConversationTurn(store, "c-1", { clock: () => start + 100 });
    await next.save(snapshotSaying("the next turn"));
    return { store, stalled };
  }

  it("a turn whose claim another turn took over (its lease ran out): its release is quiet and leaves the other's turn", async () => {
    const { store, stalled } = await takenOver();
    await expect(stalled.release()).resolves.toBeUndefined();
    expect(await store.get("c-1")).toEqual({ snapshot: snapshotSaying("the next turn"), version: 3 });
  });

  it("a turn whose claim another turn took over: its save gets the conflict, and it writes nothing after", async () => {
    const { store, stalled } = await takenOver();
    const writes: (RunSnapshot | undefined)[] = [];
    const put = store.put.bind(store);
    store.put = (id, snapshot, version, busyUntil) => (
      writes.push(snapshot),
      put(id, snapshot, version, busyUntil)
    );
    await expect(stalled.save(snapshotSaying("stalled"))).rejects.toBeInstanceOf(ConversationConflictError);
    expect(writes).toEqual([snapshotSaying("stalled")]); // no release writing back what the turn began with
    expect(await store.get("c-1")).toEqual({ snapshot: snapshotSaying("the next turn"), version: 3 });
  });

  it("a deploy renamed a tool: the stored conversation continues with the runner's own tools; a call to the old name is an unknown tool", async () => {
    const store = new InMemoryConversationStore();
    const lookup = (name: string) =>
      defineTool({ name, description: "Find an order", execute: () => "order o1: shipped" });
    const before = new FakePromptRunner().withTools(lookup("lookupOrder"));
    before.callTool("lookupOrder").respondWithText("Shipped.");
    const first = await beginConversationTurn(store, "c-1");
    await first.save((await before.run("Where is my order?")).snapshot);

    const after = new FakePromptRunner().withTools(lookup("findOrder"));
    after.callUnknownTool("lookupOrder").callTool("findOrder").respondWithText("Still shipped.");
    const second = await beginConversationTurn(store, "c-1");
    const run = await after.run("And now?", { continueFrom: second.snapshot });
    await second.save(run.snapshot);
    expect(run.result).toBe("Still shipped.");
    expect(after.toolsOfferedAt(1)).toEqual(["findOrder"]);
    expect(after.callsAt(1)[0]?.resultText).toBe('Unknown tool "lookupOrder". Available tools: findOrder.');
    expect(after.callsAt(2)[0]?.resultText).toBe("order o1: shipped");
  });
});
