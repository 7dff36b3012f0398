// RunRecorder fed a conversation backend's events: the turn a stop ended reports a second response on its
// last step (with the turn's tokens), whose text joins the step's and never wipes it; and a run paused for a
// person and resumed, which it records as one run.
import { describe, expect, it } from "vitest";
import "../../examples/register-schemas.js";
import type { RunSnapshot, ToolLoopEvent } from "entity-tools";
import { FakePromptRunner, RunRecorder, scoreToolUse } from "entity-tools/testing";
import { CustomerSearchTools } from "../../examples/domain/customer-search-tools.js";

const usage = (inputTokens: number) => ({
  inputTokens,
  outputTokens: 0,
  cachedInputTokens: 0,
  reasoningTokens: 0,
});

function stepWith(...texts: string[]) {
  const recorder = new RunRecorder();
  const events: ToolLoopEvent[] = [
    { runId: "r1", type: "ToolLoopIteration", iteration: 1, toolNames: ["searchCustomer"] },
    ...texts.map((text, i): ToolLoopEvent => ({
      runId: "r1",
      type: "ModelResponded",
      iteration: 1,
      text,
      toolCalls: i === 0 ? [{ toolName: "searchCustomer", input: {} }] : [],
      usage: usage(i * 1000),
      durationMs: 0,
    })),
  ];
  for (const event of events) recorder.observe(event);
  return recorder.steps.map((s) => s.text);
}

describe("RunRecorder: a step with a second response", () => {
  it("keeps the step's text when the second response has none", () => {
    expect(stepWith("Looking John up.", "")).toEqual(["Looking John up."]);
  });

  it("joins both texts, and takes the second when the first had none", () => {
    expect(stepWith("Looking John up.", "Found him.")).toEqual(["Looking John up.\n\nFound him."]);
    expect(stepWith("", "Found him.")).toEqual(["Found him."]);
  });
});

describe("RunRecorder: a run paused for a person and resumed", () => {
  // The resume is the same run: its steps go on from the paused ones, the approved call (run at the resume,
  // before its first model call) is a call of the step that made it, and the resumed part's calls keep the
  // providers the paused part discovered (a resume re-binds them from the snapshot, with no discovery event).
  it("goes on in the paused run's steps, with the approved call and its provider", async () => {
    const fake = new FakePromptRunner();
    const runner = fake
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withApproval((call) => call.toolName.endsWith("_recentOrders"));
    fake
      .callTool("searchCustomer", { name: "John Smith" })
      .callTools([["customer_c123_getAverageSpend"], ["customer_c123_recentOrders"]])
      .callTool("customer_c123_getAverageSpend")
      .respondWithText("46.83 a month.");
    const paused = await runner.run("John Smith's spend and orders?");
    expect(paused.status).toBe("awaiting-approval");
    const approvals = { [paused.pendingApprovals[0]!.approvalId]: { approved: true } };
    const resumed = await runner.resume(JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot, {
      approvals,
      resolveProvider: (_, id) => new CustomerSearchTools().byId(String(id)),
    });
    expect(resumed.result).toBe("46.83 a month.");

    const c123 = { providerClass: "Customer", id: "c123", idType: "string" } as const;
    expect(
      fake.steps.map((s) => ({
        step: s.step,
        calls: s.calls.map((c) => [c.toolName, c.provider?.id]).sort(),
      })),
    ).toEqual([
      { step: 1, calls: [["searchCustomer", undefined]] },
      {
        step: 2,
        calls: [
          ["customer_c123_getAverageSpend", "c123"],
          ["customer_c123_recentOrders", "c123"],
        ],
      },
      { step: 3, calls: [["customer_c123_getAverageSpend", "c123"]] },
      { step: 4, calls: [] },
    ]);
    expect(fake.runs).toHaveLength(1);
    expect(fake.steps.flatMap((s) => s.waiting)).toEqual([]); // the approved call ran: no longer waiting
    expect(fake.callsAt(3)[0]?.provider).toEqual(c123);
    const score = scoreToolUse(fake, [
      "searchCustomer",
      { tool: /_recentOrders$/, provider: c123 },
      { tool: /_getAverageSpend$/, provider: c123 },
    ]);
    expect(score.verdicts.map((v) => [v.verdict, v.step])).toEqual([
      ["called", 1],
      ["called", 2], // the approved call, run at the resume
      ["called", 2],
    ]);
  });

  it("a resume it did not see paused (another recorder, another process) starts steps of its own", async () => {
    const fake = new FakePromptRunner();
    const runner = fake
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withApproval((call) => call.toolName === "findCustomers");
    fake.callTool("findCustomers", { text: "Smith" }).respondWithText("Two Smiths.");
    const paused = await runner.run("Smiths?");
    const approvals = { [paused.pendingApprovals[0]!.approvalId]: { approved: true } };
    const recorder = new RunRecorder();
    await runner.withObserver(recorder.observe).resume(paused.snapshot!, { approvals });
    expect(recorder.steps.map((s) => s.step)).toEqual([1]);
    expect(fake.runs).toHaveLength(1); // the fake's own recorder saw it paused: one run
  });
});
