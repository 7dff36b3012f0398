// The one contract every ConversationStore passes (InMemory, File, Postgres): versions, conflicts, ids,
// content that survives, a first turn's claim, the size limit, signed snapshots. Each store's test file
// calls `conversationStoreContract` with a factory of fresh, empty stores.
import { describe, expect, it } from "vitest";
import {
  ConversationConflictError,
  ConversationTooLargeError,
  InvalidConversationIdError,
  beginConversationTurn,
  type ConversationStore,
  type RunSnapshot,
} from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";

/** How a contract run makes stores. */
export interface StoreFactory {
  /** A fresh, empty store. */
  readonly make: (options?: { maxSnapshotBytes?: number }) => ConversationStore;
  /** A second store on the same place as `store` (another server process's), when the store has one. */
  readonly sameAs?: (store: ConversationStore) => ConversationStore;
}

export const snapshotSaying = (text: string) =>
  ({
    format: "entity-tools/run-snapshot",
    version: 1,
    history: [{ role: "user", content: text }],
  }) as unknown as RunSnapshot;

const KEY = "a snapshot key of 32 bytes......";

/** Defines the contract's tests for one kind of store. */
export function conversationStoreContract(name: string, factory: StoreFactory): void {
  const { make, sameAs } = factory;

  describe(`${name}: the ConversationStore contract`, () => {
    it("keeps the latest snapshot of each conversation with its version", async () => {
      const store = make();
      expect(await store.get("c-1")).toBeUndefined();
      expect(await store.put("c-1", snapshotSaying("one"), undefined)).toBe(1);
      expect(await store.put("c-1", snapshotSaying("two"), 1)).toBe(2);
      expect(await store.put("c-2", snapshotSaying("other"), undefined)).toBe(1);
      expect(await store.get("c-1")).toEqual({ snapshot: snapshotSaying("two"), version: 2 });
      expect((await store.get("c-2"))?.version).toBe(1);
    });

    it("two concurrent writes to one conversation: one wins, the other gets a clear conflict error", async () => {
      const store = make();
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
      const store = make();
      await store.put("c-1", snapshotSaying("one"), undefined);
      await expect(store.put("c-1", snapshotSaying("again"), undefined)).rejects.toThrow(
        ConversationConflictError,
      );
      await expect(store.get("")).rejects.toThrow(InvalidConversationIdError);
      await expect(store.put("x".repeat(500), snapshotSaying("x"), undefined)).rejects.toThrow(
        "it is longer than 180 bytes",
      );
    });

    it("ids are opaque: slashes, dots, quotes and unicode name one conversation each", async () => {
      const store = make();
      const ids = ["../etc/passwd", ".", "a/b", "ü 🚀", "'; drop table x; --", 'a"b'];
      for (const id of ids) await store.put(id, snapshotSaying(id), undefined);
      for (const id of ids) expect((await store.get(id))?.snapshot).toEqual(snapshotSaying(id));
    });

    it("any content survives: a NUL character, a lone surrogate, 100 000 characters", async () => {
      const store = make();
      const text = `nul\u0000 surrogate\ud800 ${"long ".repeat(20_000)}`;
      await store.put("c-1", snapshotSaying(text), undefined);
      expect((await store.get("c-1"))?.snapshot).toEqual(snapshotSaying(text));
    });

    it("two concurrent first turns on a new id: the second gets the conflict at its start and runs nothing", async () => {
      const store = make();
      const outcomes = await Promise.allSettled([
        beginConversationTurn(store, "new-1"),
        beginConversationTurn(store, "new-1"),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect(outcomes.find((o) => o.status === "rejected")).toMatchObject({
        reason: expect.any(ConversationConflictError),
      });
      const turn = outcomes.find((o) => o.status === "fulfilled")!.value;
      expect(turn.snapshot).toBeUndefined(); // the claim is empty: the turn starts a new conversation
      const fake = new FakePromptRunner().respondWithText("Hello.");
      await turn.save((await fake.run("Hi")).snapshot);
      const next = await beginConversationTurn(store, "new-1");
      expect(next.snapshot?.history.map((m) => m.content)).toEqual(["Hi", expect.anything()]);
    });

    it("a turn in progress holds the conversation: a second turn is refused at its start (busy) until the first saves", async () => {
      const store = make();
      const first = await beginConversationTurn(store, "busy-1");
      const refused = await beginConversationTurn(store, "busy-1").catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ConversationConflictError);
      expect((refused as Error).message).toMatch(
        /^Conversation "busy-1" has a turn in progress \(another request started it; it holds the conversation until it saves, at most until \d{4}-.*Z\); this turn did not start\. Retry when that turn has ended, or tell the user it is busy\.$/,
      );
      await first.save(snapshotSaying("first"));
      const second = await beginConversationTurn(store, "busy-1");
      expect(second.snapshot).toEqual(snapshotSaying("first"));
    });

    it("a first turn that died before saving: once its lease ran out, the next turn starts the conversation", async () => {
      const store = make();
      await beginConversationTurn(store, "new-2", { leaseMs: 50 }); // the process dies here
      await expect(beginConversationTurn(store, "new-2")).rejects.toThrow("has a turn in progress");
      await new Promise((resolve) => setTimeout(resolve, 80)); // only a lower bound: never flaky
      const next = await beginConversationTurn(store, "new-2");
      expect(next.snapshot).toBeUndefined();
      await next.save(snapshotSaying("first"));
      expect(await store.get("new-2")).toEqual({ snapshot: snapshotSaying("first"), version: 3 });
    });

    it("a snapshot over maxSnapshotBytes is refused with the sizes; the stored version stays", async () => {
      const store = make({ maxSnapshotBytes: 10_000 });
      await store.put("c-1", snapshotSaying("small"), undefined);
      const error = await store.put("c-1", snapshotSaying("x".repeat(20_000)), 1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConversationTooLargeError);
      expect((error as Error).message).toMatch(
        /^Conversation "c-1" was not saved: its snapshot is 2\d{4} bytes, over the store's limit of 10000 \(maxSnapshotBytes\)\./,
      );
      expect(await store.get("c-1")).toEqual({ snapshot: snapshotSaying("small"), version: 1 });
      // A turn whose save is too large: refused, and the conversation is free again at once.
      const turn = await beginConversationTurn(store, "c-1");
      await expect(turn.save(snapshotSaying("x".repeat(20_000)))).rejects.toThrow(ConversationTooLargeError);
      const next = await beginConversationTurn(store, "c-1");
      expect(next.snapshot).toEqual(snapshotSaying("small"));
    });

    it("a signed snapshot reads back verifiable: a signed runner continues it", async () => {
      const store = make();
      const fake = new FakePromptRunner().respondWithText("One.").respondWithText("Two.");
      const signed = fake.withSnapshotKey(KEY);
      const first = await beginConversationTurn(store, "signed");
      await first.save((await signed.run("Hi")).snapshot);
      const second = await beginConversationTurn(store, "signed");
      const run = await signed.run("Again", { continueFrom: second.snapshot });
      expect(run.result).toBe("Two.");
    });

    it.skipIf(!sameAs)(
      "two stores on one place (two servers) racing on one version: exactly one write lands each round",
      async () => {
        const a = make();
        const b = sameAs!(a);
        await a.put("c-1", snapshotSaying("start"), undefined);
        for (let round = 1; round <= 10; round++) {
          const outcomes = await Promise.allSettled([
            a.put("c-1", snapshotSaying(`a${round}`), round),
            b.put("c-1", snapshotSaying(`b${round}`), round),
          ]);
          expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
          expect((await b.get("c-1"))?.version).toBe(round + 1);
        }
      },
    );

    it.skipIf(!sameAs)(
      "nothing is lost after a restart: a new store on the same place reads every conversation",
      async () => {
        const before = make();
        for (let i = 1; i <= 5; i++)
          await before.put("c-1", snapshotSaying(`turn ${i}`), i === 1 ? undefined : i - 1);
        await before.put("c-2", snapshotSaying("other"), undefined);
        const after = sameAs!(before);
        expect(await after.get("c-1")).toEqual({ snapshot: snapshotSaying("turn 5"), version: 5 });
        expect(await after.get("c-2")).toEqual({ snapshot: snapshotSaying("other"), version: 1 });
        expect(await after.put("c-1", snapshotSaying("turn 6"), 5)).toBe(6);
      },
    );
  });
}
