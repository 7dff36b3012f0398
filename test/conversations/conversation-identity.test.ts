// A snapshot names the stored conversation it belongs to (`conversationId`), so that a key mixed up never
// merges two conversations: how the runner writes, carries and checks it. What a store's turn does with it
// is in the store contract (test/support/conversation-store-contract.ts).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ConversationMismatchError,
  InvalidConversationIdError,
  SnapshotIntegrityError,
  type RunSnapshot,
} from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";

const asJson = (snapshot: RunSnapshot) => JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;
const KEY = "a snapshot key of 32 bytes......";

describe("a snapshot's conversation", () => {
  it("is written by a run given conversationId and carried by the turns that go on from it without one", async () => {
    const fake = new FakePromptRunner().respondWithText("One.").respondWithText("Two.");
    const first = await fake.run("Hi", { conversationId: "c-1" });
    expect(asJson(first.snapshot).conversationId).toBe("c-1");
    const second = await fake.run("Again", { continueFrom: asJson(first.snapshot) });
    expect(second.snapshot.conversationId).toBe("c-1");
    expect((await new FakePromptRunner().respondWithText("x").run("Hi")).snapshot).not.toHaveProperty(
      "conversationId",
    );
  });

  it("resume of another conversation's paused run is refused before anything runs", async () => {
    const fake = new FakePromptRunner().respondWithText("One.");
    const run = await fake.run("Hi", { conversationId: "c-1" });
    const refused = await fake
      .resume(asJson(run.snapshot), { conversationId: "c-2" })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConversationMismatchError);
    expect(refused).toMatchObject({ conversationId: "c-2", snapshotConversationId: "c-1", at: "start" });
    expect(fake.modelCalls).toHaveLength(1);
  });

  it("is covered by the signature: a signed snapshot relabelled to another conversation is refused as altered", async () => {
    const signed = new FakePromptRunner().respondWithText("One.").withSnapshotKey(KEY);
    const run = await signed.run("Hi", { conversationId: "c-1" });
    expect(run.snapshot.conversationId).toBe("c-1");
    const relabelled = { ...asJson(run.snapshot), conversationId: "c-2" };
    const refused = await signed
      .run("Again", { continueFrom: relabelled, conversationId: "c-2" })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SnapshotIntegrityError);
    expect((refused as SnapshotIntegrityError).problem).toBe("altered");
  });

  it("a conversationId no store keeps is refused before the run; a snapshot with an empty one is not a snapshot", async () => {
    const fake = new FakePromptRunner().respondWithText("One.");
    await expect(fake.run("Hi", { conversationId: "" })).rejects.toThrow(InvalidConversationIdError);
    const run = await fake.run("Hi");
    await expect(
      fake.run("Again", { continueFrom: { ...asJson(run.snapshot), conversationId: "" } }),
    ).rejects.toThrow('field "conversationId" must NOT have fewer than 1 characters');
    expect(fake.modelCalls).toHaveLength(1);
  });

  it("a snapshot an earlier release wrote (no conversationId) goes on in a conversation, which then names it", async () => {
    const old = JSON.parse(
      readFileSync(new URL("../fixtures/snapshots/run-snapshot-v2.json", import.meta.url), "utf8"),
    ) as RunSnapshot;
    expect(old).not.toHaveProperty("conversationId");
    const fake = new FakePromptRunner().respondWithText("Go on.");
    const run = await fake.run("Next", { continueFrom: old, conversationId: "c-old" });
    expect(run.result).toBe("Go on.");
    expect(run.snapshot.conversationId).toBe("c-old");
  });
});
