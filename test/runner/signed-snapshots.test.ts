// withSnapshotKey: every snapshot a runner hands out is signed, and resume/continueFrom refuse one that is
// unsigned, altered or truncated before anything runs (no model call, no tool).
import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  InvalidSettingError,
  SnapshotIntegrityError,
  type RunSnapshot,
  type ToolLoopResult,
} from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { refundTool } from "../support/refund-tool.js";

const KEY = "k".repeat(32);
const OLD_KEY = "o".repeat(32);
const { refund, refunds } = refundTool();

async function pausedSigned(key: string | string[] = KEY): Promise<ToolLoopResult<string>> {
  const fake = new FakePromptRunner();
  fake.callTool("searchCustomer", { name: "John Smith" }).callTool("refund");
  return fake
    .withTools(new CustomerSearchTools(), refund)
    .withToolProviderDiscovery()
    .withSnapshotKey(key)
    .run("q");
}

const asJson = (snapshot: unknown) => JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;

/** A runner that would run anything it is given: a model that answers, the tools of the snapshot. */
function resumer(key: string | string[] = KEY) {
  const fake = new FakePromptRunner();
  fake.respondWithText("done");
  return {
    fake,
    runner: fake
      .withTools(new CustomerSearchTools(), refund)
      .withToolProviderDiscovery()
      .withSnapshotKey(key),
  };
}

async function refusal(snapshot: unknown, key: string | string[] = KEY) {
  refunds.length = 0;
  const { fake, runner } = resumer(key);
  const approvals = { [(snapshot as RunSnapshot).paused?.calls[0]?.toolCallId ?? "x"]: { approved: true } };
  const resumed = await runner.resume(snapshot as RunSnapshot, { approvals }).catch((e: unknown) => e);
  const continued = await runner
    .run("next", { continueFrom: snapshot as RunSnapshot })
    .catch((e: unknown) => e);
  expect(fake.modelCalls).toHaveLength(0);
  expect(refunds).toEqual([]);
  return [resumed, continued] as const;
}

describe("signed snapshots", () => {
  it("every snapshot is signed, and a signed one resumes (after a JSON round trip) and runs the approved call once", async () => {
    refunds.length = 0;
    const paused = await pausedSigned();
    expect(paused.snapshot.signature).toMatch(/^hmac-sha256:[A-Za-z0-9_-]{43}$/);
    const { runner } = resumer();
    const run = await runner.resume(asJson(paused.snapshot), {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
    });
    expect(run.result).toBe("done");
    expect(refunds).toEqual(["refund"]);
    expect(run.snapshot.signature).toMatch(/^hmac-sha256:/);
  });

  it("an altered snapshot is refused: a changed tool binding, a changed pending input, an added field", async () => {
    const { snapshot } = await pausedSigned();
    const changedTool = asJson(snapshot) as unknown as { tools: { id?: string }[] };
    for (const t of changedTool.tools) if (t.id) t.id = "c456";
    const changedCounters = { ...asJson(snapshot), iterations: 0 };
    const addedField = { ...asJson(snapshot), extra: true };
    for (const bad of [changedTool, changedCounters, addedField]) {
      const [resumed, continued] = await refusal(bad);
      for (const error of [resumed, continued]) {
        expect(error).toBeInstanceOf(SnapshotIntegrityError);
        expect((error as SnapshotIntegrityError).problem).toBe("altered");
        expect((error as Error).message).toContain("it was altered or truncated after it was signed");
      }
    }
  });

  it("a truncated snapshot is refused: its history cut short, or a whole field missing", async () => {
    const { snapshot } = await pausedSigned();
    const shortHistory = { ...asJson(snapshot), history: snapshot.history.slice(0, 1) };
    const { tools: _tools, ...noTools } = asJson(snapshot);
    for (const bad of [shortHistory, noTools]) {
      const [resumed] = await refusal(bad);
      expect((resumed as SnapshotIntegrityError).problem).toBe("altered");
    }
  });

  it("an unsigned snapshot, or something that is not one, is refused with a key set", async () => {
    const fake = new FakePromptRunner();
    fake.callTool("refund");
    const unsigned = await fake.withTools(new CustomerSearchTools(), refund).run("q");
    expect(unsigned.snapshot.signature).toBeUndefined();
    const [resumed, continued] = await refusal(asJson(unsigned.snapshot));
    expect(resumed).toBeInstanceOf(SnapshotIntegrityError);
    expect((continued as SnapshotIntegrityError).problem).toBe("unsigned");
    expect((continued as Error).message).toMatch(
      /^The snapshot has no signature, and this runner has a snapshot key/,
    );
    const [notObject] = await refusal("a string");
    expect((notObject as SnapshotIntegrityError).problem).toBe("not-an-object");
  });

  it("a snapshot signed with another key is refused; a key list (rotation) accepts the old key and signs with the first", async () => {
    const old = await pausedSigned(OLD_KEY);
    const [refused] = await refusal(asJson(old.snapshot));
    expect((refused as SnapshotIntegrityError).problem).toBe("altered");
    const { runner } = resumer([KEY, OLD_KEY]);
    const run = await runner.resume(asJson(old.snapshot), {
      approvals: { [old.pendingApprovals[0]!.approvalId]: { approved: false } },
    });
    expect(run.result).toBe("done");
    const { runner: newOnly } = resumer(KEY);
    await expect(newOnly.run("again", { continueFrom: asJson(run.snapshot) })).resolves.toMatchObject({
      status: "completed",
    });
  });

  it("no key (an unset environment variable), an empty list or a short key is a clear error at configuration", () => {
    const runner = new FakePromptRunner();
    expect(() => runner.withSnapshotKey(undefined)).toThrow(InvalidSettingError);
    expect(() => runner.withSnapshotKey([])).toThrow(
      "withSnapshotKey must be a key or a non-empty list of keys",
    );
    expect(() => runner.withSnapshotKey("short")).toThrow("a key of at least 16 bytes");
  });

  it("without a key, snapshots are unsigned and read as they are (the caller trusts their source)", async () => {
    const fake = new FakePromptRunner();
    fake.callTool("searchCustomer", { name: "John Smith" }).respondWithText("ok").respondWithText("again");
    const runner = fake.withTools(new CustomerSearchTools()).withToolProviderDiscovery();
    const turn1 = await runner.run("q");
    const edited = { ...asJson(turn1.snapshot), iterations: 40 };
    const turn2 = await runner.run("more", { continueFrom: edited });
    expect(turn2.totalIterations).toBe(41);
  });
});
