// One signing-key rule for snapshots, entity handles and the MCP server's approval questions: the same key
// list rotates all three (the first key signs, any listed key verifies), and a too-short key is refused
// by all three with the same error.
import "../fixtures/register.js";
import { describe, expect, it } from "vitest";
import { defineTool, EntityHandleCodec, InvalidSettingError, PromptRunner } from "entity-tools";
import { createMcpServer } from "entity-tools/mcp";
import { FakePromptRunner } from "entity-tools/testing";
import { McpApprovals } from "../../src/mcp/mcp-approval.js";
import { KeyRing } from "../../src/tools/signing-key.js";
import { Account, Bank } from "../fixtures/bank.js";

const OLD = "the old key, still accepted";
const NEW = "the new key, the one that signs";
const ROTATED = [NEW, OLD];

const refund = defineTool({
  name: "refund",
  description: "Refund",
  needsApproval: true,
  execute: () => "ok",
});

describe("one key list rotates snapshots, handles and MCP approval questions", () => {
  it("a snapshot signed with the old key is accepted by [new, old], and re-signed with the new key", async () => {
    const fake = new FakePromptRunner().withTools(refund).withSnapshotKey(OLD);
    fake.callTool("refund");
    const paused = await fake.run("q");
    const next = new FakePromptRunner().withTools(refund).withSnapshotKey(ROTATED);
    next.respondWithText("done");
    const resumed = await next.resume(JSON.parse(JSON.stringify(paused.snapshot)), {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
    });
    expect(resumed.result).toBe("done");
    const newOnly = new FakePromptRunner().withTools(refund).withSnapshotKey(NEW);
    newOnly.respondWithText("done again");
    const again = await newOnly.run("more", { continueFrom: JSON.parse(JSON.stringify(resumed.snapshot)) });
    expect(again.result).toBe("done again");
  });

  it("a handle minted with the old key works in a run whose handleKey is [new, old]", async () => {
    const handle = new EntityHandleCodec(OLD).handleOf(new Account(2, "Bob", 50));
    expect(new EntityHandleCodec(ROTATED).read(handle)).toMatchObject({ ok: true, id: 2 });
    expect(new EntityHandleCodec(ROTATED).handleOf(new Account(2, "Bob", 50))).toBe(
      new EntityHandleCodec(NEW).handleOf(new Account(2, "Bob", 50)),
    );
    const fake = new FakePromptRunner()
      .withTools(new Bank())
      .withToolProviderDiscovery({ binding: "handles", classes: [Account], handleKey: ROTATED });
    fake
      .callTool("findAccounts", { owner: "Bob" })
      .callTool("account_getBalance", { handle })
      .respondWithText("50");
    await fake.run("Bob's balance?");
    expect(fake.callsAt(2)[0]).toMatchObject({ resultText: "50", isError: false });
  });

  it("an approval question asked under the old key is honoured by a server with [new, old]", async () => {
    const resolved = { call: { toolCallId: "1", toolName: "refund", input: {} }, tool: refund, input: {} };
    const asked = await new McpApprovals(undefined, KeyRing.of("handleKey", OLD)).step({
      resolved,
      answer: { kind: "missing" },
      requestState: undefined,
      canAsk: true,
    });
    expect(asked.kind).toBe("ask");
    const answer = { kind: "elicit", action: "accept", content: { approve: true } };
    const requestState = (asked as { requestState: string }).requestState;
    const rotated = new McpApprovals(undefined, KeyRing.of("handleKey", ROTATED));
    expect(await rotated.step({ resolved, answer, requestState, canAsk: true })).toEqual({
      kind: "run",
      approved: true,
    });
    const other = new McpApprovals(undefined, KeyRing.of("handleKey", "a different key altogether"));
    expect((await other.step({ resolved, answer, requestState, canAsk: true })).kind).toBe("ask");
  });
});

describe("a too-short key", () => {
  const refusals: [string, () => unknown][] = [
    ["withSnapshotKey", () => new PromptRunner({ model: "m" as never }).withSnapshotKey("short")],
    ["handleKey (EntityHandleCodec)", () => new EntityHandleCodec("short")],
    [
      "handleKey (withToolProviderDiscovery)",
      () =>
        new PromptRunner({ model: "m" as never }).withToolProviderDiscovery({
          binding: "handles",
          handleKey: "short",
        }),
    ],
    [
      "handleKey (createMcpServer)",
      () => createMcpServer({ name: "s", version: "1", tools: [], handleKey: "short" }),
    ],
    ["a rotation list", () => new EntityHandleCodec([NEW, "short"])],
  ];

  it.each(refusals)("is refused by %s with the one InvalidSettingError", (_where, make) => {
    let thrown: unknown;
    try {
      make();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidSettingError);
    expect(thrown).toMatchObject({
      value: "a key of 5 bytes",
      expected: "a key of at least 16 bytes (32 random bytes recommended)",
    });
  });
});
