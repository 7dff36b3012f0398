// ConversationStore: get/put by conversation id with an optimistic version, in memory (the testing kit)
// and in files (the embedded default, which survives a restart); and a stored conversation's turn, which
// claims the conversation before anything runs, so a paused run is never resumed twice.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ConversationConflictError,
  FileConversationStore,
  InvalidConversationIdError,
  beginConversationTurn,
  defineTool,
  type ConversationStore,
  type RunSnapshot,
} from "entity-tools";
import { FakePromptRunner, InMemoryConversationStore } from "entity-tools/testing";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "conversations-"));
  dirs.push(dir);
  return dir;
}

const snapshotSaying = (text: string) =>
  ({
    format: "entity-tools/run-snapshot",
    version: 1,
    history: [{ role: "user", content: text }],
  }) as unknown as RunSnapshot;

const stores: [string, () => ConversationStore][] = [
  ["InMemoryConversationStore", () => new InMemoryConversationStore()],
  ["FileConversationStore", () => new FileConversationStore(scratch())],
];

describe.each(stores)("%s", (_name, makeStore) => {
  it("keeps the latest snapshot of each conversation with its version", async () => {
    const store = makeStore();
    expect(await store.get("c-1")).toBeUndefined();
    expect(await store.put("c-1", snapshotSaying("one"), undefined)).toBe(1);
    expect(await store.put("c-1", snapshotSaying("two"), 1)).toBe(2);
    expect(await store.put("c-2", snapshotSaying("other"), undefined)).toBe(1);
    expect(await store.get("c-1")).toEqual({ snapshot: snapshotSaying("two"), version: 2 });
    expect((await store.get("c-2"))?.version).toBe(1);
  });

  it("two concurrent writes to one conversation: one wins, the other gets a clear conflict error", async () => {
    const store = makeStore();
    await store.put("c-1", snapshotSaying("start"), undefined);
    const outcomes = await Promise.allSettled([
      store.put("c-1", snapshotSaying("from request A"), 1),
      store.put("c-1", snapshotSaying("from request B"), 1),
    ]);
    const won = outcomes.filter((o) => o.status === "fulfilled");
    const lost = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as unknown] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(ConversationConflictError);
    expect(lost[0]).toMatchObject({ conversationId: "c-1", expectedVersion: 1, actualVersion: 2 });
    expect((lost[0] as Error).message).toBe(
      'Conversation "c-1" was written by another request meanwhile (expected version 1, found 2); this turn was not saved. Read the conversation again and retry the turn, or tell the user it is busy.',
    );
    const winner = outcomes.findIndex((o) => o.status === "fulfilled");
    expect((await store.get("c-1"))?.snapshot).toEqual(
      snapshotSaying(winner === 0 ? "from request A" : "from request B"),
    );
  });

  it("a write based on no version conflicts with an existing conversation; an empty or huge id is refused", async () => {
    const store = makeStore();
    await store.put("c-1", snapshotSaying("one"), undefined);
    await expect(store.put("c-1", snapshotSaying("again"), undefined)).rejects.toThrow(
      ConversationConflictError,
    );
    await expect(store.get("")).rejects.toThrow(InvalidConversationIdError);
    await expect(store.put("x".repeat(500), snapshotSaying("x"), undefined)).rejects.toThrow(
      "it is longer than 180 bytes",
    );
  });

  it("ids are opaque: slashes, dots and unicode name one conversation each", async () => {
    const store = makeStore();
    for (const id of ["../etc/passwd", ".", "a/b", "ü 🚀"])
      await store.put(id, snapshotSaying(id), undefined);
    for (const id of ["../etc/passwd", ".", "a/b", "ü 🚀"])
      expect((await store.get(id))?.snapshot).toEqual(snapshotSaying(id));
  });
});

describe("FileConversationStore across restarts and processes", () => {
  it("nothing is lost after a restart: a new store on the same directory reads every conversation at its version", async () => {
    const dir = scratch();
    const before = new FileConversationStore(dir);
    for (let i = 1; i <= 5; i++)
      await before.put("c-1", snapshotSaying(`turn ${i}`), i === 1 ? undefined : i - 1);
    await before.put("c-2", snapshotSaying("other"), undefined);
    const after = new FileConversationStore(dir);
    expect(await after.get("c-1")).toEqual({ snapshot: snapshotSaying("turn 5"), version: 5 });
    expect(await after.get("c-2")).toEqual({ snapshot: snapshotSaying("other"), version: 1 });
    expect(await after.put("c-1", snapshotSaying("turn 6"), 5)).toBe(6);
  });

  it("two stores on one directory (two servers) racing on one version: exactly one write lands each round", async () => {
    const dir = scratch();
    const a = new FileConversationStore(dir);
    const b = new FileConversationStore(dir);
    await a.put("c-1", snapshotSaying("start"), undefined);
    for (let round = 1; round <= 10; round++) {
      const outcomes = await Promise.allSettled([
        a.put("c-1", snapshotSaying(`a${round}`), round),
        b.put("c-1", snapshotSaying(`b${round}`), round),
      ]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      expect((await b.get("c-1"))?.version).toBe(round + 1);
    }
  });
});

describe("a stored conversation's turn", () => {
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
  });

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
    const said = run.conversationHistory.map((m) =>
      typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join(""),
    );
    expect(said).toEqual(["Hi", "Hello.", "Are you there?", "Still here."]);
    expect((await store.get("chat-9"))?.version).toBe(3); // the first turn's save, the second's claim and save
  });
});
