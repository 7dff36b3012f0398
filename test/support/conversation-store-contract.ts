// The one contract every ConversationStore passes (InMemory, File, Postgres): versions, conflicts, ids,
// content that survives, a first turn's claim and its renewal, the size limit, signed snapshots. Each
// store's test file calls `conversationStoreContract` with a factory of fresh, empty stores.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  ConversationConflictError,
  ConversationMismatchError,
  ConversationTooLargeError,
  DEFAULT_TURN_LEASE_MS,
  InvalidConversationIdError,
  beginConversationTurn,
  type ConversationStore,
  type RunSnapshot,
} from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import type { ChildStoreSpec } from "./conversation-store-child.js";
import { bundledScript } from "./bundled-script.js";

/** How a contract run makes stores. */
export interface StoreFactory {
  /** A fresh, empty store. */
  readonly make: (options?: { maxSnapshotBytes?: number }) => ConversationStore;
  /** A second store on the same place as `store` (another server process's), when the store has one. */
  readonly sameAs?: (store: ConversationStore, options?: { maxSnapshotBytes?: number }) => ConversationStore;
  /** Where `store` lives, for another process to open it (test/support/conversation-store-child.ts). */
  readonly spec?: (store: ConversationStore) => ChildStoreSpec;
}

/**
 * A store whose renewals can be waited for: `renewedTo(t)` resolves once a renewal that moves a claim to
 * `t` or later has landed.
 */
function watchRenewals(store: ConversationStore) {
  const landed: number[] = [];
  const waiters: (() => void)[] = [];
  const watched: ConversationStore = {
    get: (id) => store.get(id),
    put: (id, snapshot, version, busyUntil) => store.put(id, snapshot, version, busyUntil),
    renewTurn: async (id, version, busyUntil) => {
      const held = await store.renewTurn!(id, version, busyUntil);
      landed.push(busyUntil);
      for (const wake of waiters.splice(0)) wake();
      return held;
    },
  };
  const renewedTo = (t: number) =>
    new Promise<void>((resolve) => {
      const check = () => (landed.some((b) => b >= t) ? resolve() : waiters.push(check));
      check();
    });
  return { store: watched, renewedTo };
}

/** Runs test/support/conversation-store-child.ts; resolves once it printed `line`, with a way to kill it. */
export async function child(args: string[], line: string) {
  const script = await bundledScript("test/support/conversation-store-child.ts");
  const process_ = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<number | null>((resolve) => process_.once("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`${line}\n`)) resolve();
    };
    process_.stdout.on("data", read);
    process_.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(new Error(`the child exited (${code}) before "${line}": ${output}`)));
  });
  return {
    kill: async () => {
      process_.kill("SIGKILL");
      await exited;
    },
    exited,
  };
}

/** The ids every store refuses alike (InvalidConversationIdError), with the reason. */
export const REFUSED_IDS: readonly (readonly [string, string])[] = [
  ["", "it is empty"],
  ["a\u0000b", "it holds a NUL character (U+0000)"],
  ["a\u0000c", "it holds a NUL character (U+0000)"],
  ["a\ud800", "it holds a lone surrogate (U+D800), half of a character"],
  ["\udc00b", "it holds a lone surrogate (U+DC00), half of a character"],
  ["x".repeat(181), "it is longer than 180 bytes"],
  ["🚀".repeat(45) + "x", "it is longer than 180 bytes"],
];

export const snapshotSaying = (text: string) =>
  ({
    format: "entity-tools/run-snapshot",
    version: 1,
    history: [{ role: "user", content: text }],
  }) as unknown as RunSnapshot;

/** A turn refused because another holds the conversation: said so, with when to retry (within a lease). */
function expectBusy(refused: ConversationConflictError, id: string): void {
  expect(refused).toBeInstanceOf(ConversationConflictError);
  expect(refused.message).toMatch(
    new RegExp(
      `^Conversation "${id}" has a turn in progress \\(.*\\); this turn did not start\\. Retry in \\d+ s`,
    ),
  );
  expect(refused.retryAfterMs).toBeGreaterThan(0);
  expect(refused.retryAfterMs).toBeLessThanOrEqual(DEFAULT_TURN_LEASE_MS);
}

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
      const refused = outcomes.find((o) => o.status === "rejected")!.reason as ConversationConflictError;
      expectBusy(refused, "new-1");
      const turn = outcomes.find((o) => o.status === "fulfilled")!.value;
      expect(turn.snapshot).toBeUndefined(); // the claim is empty: the turn starts a new conversation
      const fake = new FakePromptRunner().respondWithText("Hello.");
      await turn.save((await fake.run("Hi")).snapshot);
      const next = await beginConversationTurn(store, "new-1");
      expect(next.snapshot?.history.map((m) => m.content)).toEqual(["Hi", expect.anything()]);
      await next.release();
    });

    it("two turns of one conversation at once: the second is told a turn is in progress and when to retry, and runs nothing", async () => {
      const store = make();
      const first = await beginConversationTurn(store, "both");
      await first.save(snapshotSaying("turn 1"));
      const outcomes = await Promise.allSettled([
        beginConversationTurn(store, "both"),
        beginConversationTurn(store, "both"),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
      expectBusy(outcomes.find((o) => o.status === "rejected")!.reason as ConversationConflictError, "both");
      const turn = outcomes.find((o) => o.status === "fulfilled")!.value;
      expect(turn.snapshot).toEqual(snapshotSaying("turn 1"));
      await turn.save(snapshotSaying("turn 2"));
      expect((await store.get("both"))?.snapshot).toEqual(snapshotSaying("turn 2"));
    });

    it("a turn in progress holds the conversation: a second turn is refused at its start (busy) until the first saves", async () => {
      const store = make();
      const first = await beginConversationTurn(store, "busy-1");
      const refused = await beginConversationTurn(store, "busy-1").catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ConversationConflictError);
      expect((refused as Error).message).toMatch(
        /^Conversation "busy-1" has a turn in progress \(another request started it and holds the conversation until it saves; its process renews the claim while it lives, else the claim ends at \d{4}-.*Z\); this turn did not start\. Retry in \d+ s \(retryAfterMs: \d+\), or tell the user it is busy\.$/,
      );
      await first.save(snapshotSaying("first"));
      const second = await beginConversationTurn(store, "busy-1");
      expect(second.snapshot).toEqual(snapshotSaying("first"));
      await second.release();
    });

    it("a first turn that died before saving: once its claim ran out unrenewed, the next turn starts the conversation", async () => {
      const store = make();
      const start = Date.now();
      await store.put("new-2", undefined, undefined, start + 50); // what a dead turn leaves: a claim no one renews
      const refused = await beginConversationTurn(store, "new-2", { clock: () => start }).catch(
        (e: unknown) => e,
      );
      expect(refused).toMatchObject({ busyUntil: start + 50, retryAfterMs: 50 });
      const next = await beginConversationTurn(store, "new-2", { clock: () => start + 50 });
      expect(next.snapshot).toBeUndefined();
      await next.save(snapshotSaying("first"));
      expect(await store.get("new-2")).toEqual({ snapshot: snapshotSaying("first"), version: 3 });
    });

    it("a live turn longer than its lease keeps its claim: renewed without a new version, a second turn is refused with retryAfterMs", async () => {
      const { store, renewedTo } = watchRenewals(make());
      let now = Date.now();
      const clock = () => now;
      const first = await beginConversationTurn(store, "long", { leaseMs: 300, clock });
      now += 1_000; // past the claim's first end: only a renewal keeps it
      await renewedTo(now + 300);
      const refused = await beginConversationTurn(store, "long", { leaseMs: 300, clock }).catch(
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(ConversationConflictError);
      expect(refused).toMatchObject({ retryAfterMs: 300, busyUntil: now + 300 });
      expect((refused as Error).message).toMatch(
        /^Conversation "long" has a turn in progress \(another request started it and holds the conversation until it saves; its process renews the claim while it lives, else the claim ends at \d{4}-.*Z\); this turn did not start\. Retry in 1 s \(retryAfterMs: 300\), or tell the user it is busy\.$/,
      );
      expect((await store.get("long"))?.version).toBe(1); // renewals write no version
      await first.save(snapshotSaying("the long turn"));
      const next = await beginConversationTurn(store, "long", { clock });
      expect(next.snapshot).toEqual(snapshotSaying("the long turn"));
      await next.release();
    });

    it("renewTurn moves a claim of the version it names only; a saved conversation stays free", async () => {
      const store = make();
      const start = Date.now();
      await store.put("r-1", undefined, undefined, start + 100);
      expect(await store.renewTurn!("r-1", 1, start + 5_000)).toBe(true);
      expect(await store.get("r-1")).toEqual({ snapshot: undefined, version: 1, busyUntil: start + 5_000 });
      expect(await store.renewTurn!("r-1", 2, start + 9_000)).toBe(false);
      await store.put("r-1", snapshotSaying("saved"), 1);
      expect(await store.renewTurn!("r-1", 1, start + 9_000)).toBe(false);
      await store.renewTurn!("r-1", 2, start + 9_000); // not a claim: nothing to move
      expect(await store.get("r-1")).toEqual({ snapshot: snapshotSaying("saved"), version: 2 });
      expect(await store.renewTurn!("never-written", 1, start)).toBe(false);
    });

    it.skipIf(!factory.spec)(
      "a process SIGKILLed inside a tool: its claim, renewed while it lived, frees the conversation within the default lease (15 s)",
      async () => {
        const store = make();
        const before = await beginConversationTurn(store, "killed");
        const saved = (await new FakePromptRunner().respondWithText("Hello.").run("Hi")).snapshot;
        await before.save(saved);
        const dying = await child(["die-in-tool", JSON.stringify(factory.spec!(store)), "killed"], "in tool");
        const alive = await beginConversationTurn(store, "killed").catch((e: unknown) => e);
        expect(alive).toBeInstanceOf(ConversationConflictError);
        const { retryAfterMs } = alive as ConversationConflictError;
        expect(retryAfterMs).toBeGreaterThan(0);
        expect(retryAfterMs).toBeLessThanOrEqual(DEFAULT_TURN_LEASE_MS);
        await dying.kill();
        // No one renews the claim now: a turn starting one lease after the kill goes on from the last save.
        const next = await beginConversationTurn(store, "killed", {
          clock: () => Date.now() + DEFAULT_TURN_LEASE_MS,
        });
        expect(next.snapshot).toEqual(saved);
        await next.release();
      },
    );

    it("one id rule on every store, checked before the store is touched: NUL, lone surrogates, empty and over 180 bytes are refused", async () => {
      const store = make();
      const touched: string[] = [];
      const spy: ConversationStore = {
        get: (id) => (touched.push(id), store.get(id)),
        put: (id, snapshot, version, busyUntil) => (
          touched.push(id),
          store.put(id, snapshot, version, busyUntil)
        ),
      };
      for (const [id, reason] of REFUSED_IDS) {
        for (const call of [
          () => beginConversationTurn(spy, id),
          () => store.get(id),
          () => store.put(id, snapshotSaying("x"), undefined),
          () => store.renewTurn!(id, 1, Date.now()),
        ]) {
          const error = await call().catch((e: unknown) => e);
          expect(error).toBeInstanceOf(InvalidConversationIdError);
          expect((error as Error).message).toBe(
            `Invalid conversation id ${JSON.stringify(id.slice(0, 80))}: ${reason}. Use a short opaque id (a UUID).`,
          );
        }
      }
      expect(touched).toEqual([]);
    });

    it("every other id is kept, distinct from every other: control characters, U+FFFF, 180 bytes differing in the last character", async () => {
      const store = make();
      const long = "🚀".repeat(44) + "ab"; // 178 bytes: with one more character, 179
      const ids = [
        "\u0001",
        "\u0002",
        "tab\there\nnewline",
        "\uffff",
        "\ufeffbom",
        long + "c",
        long + "d",
        "x".repeat(180),
      ];
      for (const id of ids) await store.put(id, snapshotSaying(JSON.stringify(id)), undefined);
      for (const id of ids)
        expect((await store.get(id))?.snapshot).toEqual(snapshotSaying(JSON.stringify(id)));
    });

    it("a snapshot over maxSnapshotBytes is refused with the sizes; the stored version stays", async () => {
      const store = make({ maxSnapshotBytes: 10_000 });
      await store.put("c-1", snapshotSaying("small"), undefined);
      const error = await store.put("c-1", snapshotSaying("x".repeat(20_000)), 1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConversationTooLargeError);
      expect((error as Error).message).toMatch(
        /^Conversation "c-1" was not saved: its snapshot is 2\d{4} bytes, over the store's limit of 10000 \(maxSnapshotBytes\)\./,
      );
      // Measured in bytes of UTF-8, not in characters: 6 000 "é" are 12 000 bytes.
      await expect(store.put("c-1", snapshotSaying("é".repeat(6_000)), 1)).rejects.toThrow(
        ConversationTooLargeError,
      );
      expect(await store.get("c-1")).toEqual({ snapshot: snapshotSaying("small"), version: 1 });
      // A turn whose save is too large: refused, and the conversation is free again at once.
      const turn = await beginConversationTurn(store, "c-1");
      await expect(turn.save(snapshotSaying("x".repeat(20_000)))).rejects.toThrow(ConversationTooLargeError);
      const next = await beginConversationTurn(store, "c-1");
      expect(next.snapshot).toEqual(snapshotSaying("small"));
      await next.release();
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
      await second.save(run.snapshot);
    });

    it("another conversation's snapshot never lands in this one: refused before the model with conversationId, else at save; both stay as they were", async () => {
      const store = make();
      const fake = new FakePromptRunner()
        .respondWithText("Hello Ann.")
        .respondWithText("Hello Bob.")
        .respondWithText("Ann, your order shipped.");
      for (const [id, message] of [
        ["user-ann", "I am Ann"],
        ["user-bob", "I am Bob"],
      ] as const) {
        const turn = await beginConversationTurn(store, id);
        await turn.save(
          (await fake.run(message, { continueFrom: turn.snapshot, conversationId: id })).snapshot,
        );
      }
      const bob = (await store.get("user-bob"))!;
      const ann = (await store.get("user-ann"))!;
      expect(ann.snapshot?.conversationId).toBe("user-ann"); // kept by the store with the rest
      // A key mixed up: Ann's turn goes on from Bob's snapshot.
      const turn = await beginConversationTurn(store, "user-ann");
      const refused = await fake
        .run("Where is my order?", { continueFrom: bob.snapshot, conversationId: "user-ann" })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ConversationMismatchError);
      expect((refused as Error).message).toBe(
        'The snapshot belongs to conversation "user-bob", not to conversation "user-ann": this turn did not start ' +
          '(nothing ran), and conversation "user-ann" is as it was. Continue a conversation from its own stored ' +
          "snapshot (the turn's `snapshot` from beginConversationTurn with the same id).",
      );
      expect(fake.modelCalls).toHaveLength(2); // the model was not called
      await turn.release();
      // The same mix-up without conversationId: the run's snapshot names Bob's conversation, and Ann's save refuses it.
      const again = await beginConversationTurn(store, "user-ann");
      const run = await fake.run("Where is my order?", { continueFrom: bob.snapshot });
      const unsaved = await again.save(run.snapshot).catch((e: unknown) => e);
      expect(unsaved).toMatchObject({
        conversationId: "user-ann",
        snapshotConversationId: "user-bob",
        at: "save",
      });
      expect((unsaved as Error).message).toContain("this turn was not saved");
      // Nothing merged, and Ann's conversation is free at once: her next turn reads her own history.
      expect((await store.get("user-bob"))?.snapshot).toEqual(bob.snapshot);
      const next = await beginConversationTurn(store, "user-ann");
      expect(next.snapshot).toEqual(ann.snapshot);
      await next.release();
    });

    it("a put of another conversation's snapshot is refused and writes nothing; one of this conversation or of none is kept", async () => {
      const store = make();
      const of = (id: string, text: string) =>
        ({ ...snapshotSaying(text), conversationId: id }) as RunSnapshot;
      expect(await store.put("ann", of("ann", "I am Ann"), undefined)).toBe(1);
      for (const [id, version] of [
        ["ann", 1], // an existing conversation
        ["carol", undefined], // a new one
      ] as const) {
        const refused = await store.put(id, of("bob", "I am Bob"), version).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(ConversationMismatchError);
        expect(refused).toMatchObject({ conversationId: id, snapshotConversationId: "bob", at: "save" });
        expect((refused as Error).message).toMatch(
          new RegExp(
            `^The snapshot belongs to conversation "bob", not to conversation "${id}": this turn was not saved`,
          ),
        );
      }
      expect(await store.get("ann")).toEqual({ snapshot: of("ann", "I am Ann"), version: 1 });
      expect(await store.get("carol")).toBeUndefined();
      expect(await store.put("ann", snapshotSaying("named by none"), 1)).toBe(2);
      expect(await store.put("ann", of("ann", "Ann again"), 2)).toBe(3);
    });

    it("a snapshot without a conversation (written before conversationId existed) still goes on and saves", async () => {
      const store = make();
      const fake = new FakePromptRunner().respondWithText("One.").respondWithText("Two.");
      const first = await beginConversationTurn(store, "old");
      await first.save((await fake.run("Hi")).snapshot);
      const second = await beginConversationTurn(store, "old");
      expect(second.snapshot?.conversationId).toBeUndefined();
      const run = await fake.run("Again", { continueFrom: second.snapshot, conversationId: "old" });
      await second.save(run.snapshot);
      expect((await store.get("old"))?.snapshot?.conversationId).toBe("old");
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
      "a conversation already over maxSnapshotBytes (the limit lowered since): its turn is refused at its start, before the model; the conversation stays",
      async () => {
        const roomy = make();
        const fake = new FakePromptRunner().respondWithText("Noted.".repeat(3_000));
        const first = await beginConversationTurn(roomy, "big");
        await first.save((await fake.run("Remember this")).snapshot);
        const stored = await roomy.get("big");
        const tight = sameAs!(roomy, { maxSnapshotBytes: 10_000 });
        const refused = await beginConversationTurn(tight, "big").catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(ConversationTooLargeError);
        expect(refused).toMatchObject({ conversationId: "big", maxBytes: 10_000, at: "start" });
        expect((refused as Error).message).toMatch(
          /^Conversation "big" is over the store's limit: its stored snapshot is 1\d{4} bytes, over 10000 \(maxSnapshotBytes\), so no turn of it could be saved; this turn did not start \(nothing ran\)\. Start a new conversation, or raise the limit\.$/,
        );
        expect(fake.modelCalls).toHaveLength(1); // only the first turn's
        expect(await tight.get("big")).toEqual(stored); // nothing written, not held
        const roomyTurn = await beginConversationTurn(roomy, "big");
        await roomyTurn.release();
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
