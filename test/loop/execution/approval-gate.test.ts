// The approval rule alone: a decision belongs to one waiting call (id, tool and input), and is used once.
import { describe, expect, it } from "vitest";
import { defineTool } from "entity-tools";
import { ApprovalGate } from "../../../src/loop/execution/approval-gate.js";

const refund = defineTool({
  name: "refund",
  description: "Refund",
  inputSchema: { type: "object", properties: { amount: { type: "number" } } },
  needsApproval: true,
  execute: () => "refunded",
});
const waiting = { toolCallId: "c1", toolName: "refund", input: { amount: 40 } };
/** A call as the gate gets it: resolved, its input valid. */
const resolved = (call: typeof waiting) => ({ call, tool: refund, input: call.input });

describe("ApprovalGate", () => {
  it("a decision applies to the waiting call with its id, tool and input, once", async () => {
    const gate = new ApprovalGate(undefined, { c1: { approved: true } }, [waiting]);
    expect(await gate.verdict(resolved({ ...waiting, input: { amount: 4000 } }))).toEqual({ kind: "ask" });
    expect(await gate.verdict(resolved({ ...waiting, toolName: "refund2" }))).toEqual({ kind: "ask" });
    expect(await gate.verdict(resolved({ ...waiting, input: { amount: 40 } }))).toEqual({ kind: "run" });
    expect(await gate.verdict(resolved(waiting))).toEqual({ kind: "ask" });
  });

  it("a decision for a call that was not waiting decides nothing", async () => {
    const gate = new ApprovalGate(undefined, { c2: { approved: true } }, [waiting]);
    expect(await gate.verdict(resolved({ ...waiting, toolCallId: "c2" }))).toEqual({ kind: "ask" });
  });

  it("only approved: true approves; anything else denies, with a reason only when it is text", async () => {
    const decisions = JSON.parse('{"c1": {"approved": "yes", "reason": {"x": 1}}}') as Record<
      string,
      { approved: true }
    >;
    const gate = new ApprovalGate(undefined, decisions, [waiting]);
    expect(await gate.verdict(resolved(waiting))).toEqual({ kind: "deny", reason: undefined });
  });
});

describe("the provider a rule sees", () => {
  class Ledger {}
  const origin = { instance: new Ledger(), providerClass: Ledger, methodName: "refund" };
  const seen = async (tool: typeof refund) => {
    let provider: unknown;
    const gate = new ApprovalGate((call) => ((provider = call.provider), false));
    await gate.verdict({ call: waiting, tool: { ...tool, needsApproval: false }, input: waiting.input });
    return provider;
  };

  it("is the origin's identity; an origin with only the deprecated instanceKey names no provider", async () => {
    const identity = { providerClass: "Ledger", id: 7, idType: "number" } as const;
    const expected = { ...identity, method: "refund" };
    expect(await seen({ ...refund, origin: { ...origin, identity } })).toEqual(expected);
    expect(await seen({ ...refund, origin: { ...origin, instanceKey: "number:7" } })).toBeUndefined();
    expect(await seen({ ...refund, origin })).toBeUndefined();
  });
});
