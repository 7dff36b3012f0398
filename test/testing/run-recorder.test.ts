// RunRecorder fed a conversation backend's events: the turn a stop ended reports a second response on its
// last step (with the turn's tokens), whose text joins the step's and never wipes it; and a run paused for a
// person and resumed, which it records as one run.
import { describe, expect, it } from "vitest";
import "../../examples/register-schemas.js";
import { ModelCallError, PromptRunner, type RunSnapshot, type ToolLoopEvent } from "entity-tools";
import {
  FakePromptRunner,
  RunRecorder,
  ScriptedLanguageModel,
  scoreToolUse,
  type RecordedStep,
} from "entity-tools/testing";
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

  it("a failed run resumed from its error's snapshot on a new runner goes on in the run's steps", async () => {
    // A resume that decides nothing (the run did not pause for a person): the recorder knows it by the run
    // its snapshot names. A second resume of the same snapshot is a run of its own (another branch).
    const recorder = new RunRecorder();
    const model = new ScriptedLanguageModel()
      .callTool("searchCustomer", { name: "John Smith" })
      .respondWith("an overloaded provider", () => {
        throw new Error("overloaded");
      })
      .callTool("customer_c123_getAverageSpend")
      .respondWithText("46.83 a month.")
      .respondWithText("Again: 46.83 a month.");
    const started: ToolLoopEvent[] = [];
    const runner = () =>
      new PromptRunner({ model, modelSettings: { maxRetries: 0 } })
        .withTools(new CustomerSearchTools())
        .withToolProviderDiscovery()
        .withObserver(recorder.observe)
        .withObserver((e) => (e.type === "RunStarted" ? started.push(e) : undefined));
    const failure = (await runner()
      .run("John Smith's spend?")
      .catch((e: unknown) => e)) as ModelCallError;
    expect(failure).toBeInstanceOf(ModelCallError);
    const snapshot = JSON.parse(JSON.stringify(failure.snapshot)) as RunSnapshot;
    const resolveProvider = (_: string, id: unknown) => new CustomerSearchTools().byId(String(id));
    const resumed = await runner().resume(snapshot, { resolveProvider });
    expect(resumed.result).toBe("46.83 a month.");
    // One identity: the failed run's events' id is what its snapshot names and what the resume continues.
    expect(started).toEqual([
      { type: "RunStarted", runId: snapshot.log, resumed: false },
      { type: "RunStarted", runId: resumed.snapshot.log, resumed: true, continues: snapshot.log },
    ]);
    expect(snapshot.log).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-[0-9a-f]{6}$/);
    const seen = (steps: readonly RecordedStep[]) =>
      steps.map((s) => [s.step, ...s.calls.map((c) => `${c.toolName} on ${c.provider?.id ?? "-"}`)]);
    expect(recorder.allRuns.map(seen)).toEqual([
      [[1, "searchCustomer on -"], [2], [3, "customer_c123_getAverageSpend on c123"], [4]],
    ]);
    expect(scoreToolUse(recorder, ["searchCustomer", /_getAverageSpend$/]).score).toBe(1);

    await runner().resume(snapshot, { resolveProvider }); // the failed run again, from the same point
    expect(recorder.allRuns.map(seen)).toEqual([
      [[1, "searchCustomer on -"], [2], [3, "customer_c123_getAverageSpend on c123"], [4]],
      [[1]],
    ]);
  });

  it("a conversation's next turn is a run of its own whose calls keep the providers earlier turns found", async () => {
    const fake = new FakePromptRunner();
    const runner = fake.withTools(new CustomerSearchTools()).withToolProviderDiscovery();
    fake
      .callTool("searchCustomer", { name: "John Smith" })
      .respondWithText("Found John Smith (c123).")
      .callTool("customer_c123_getAverageSpend")
      .respondWithText("46.83 USD a month.");
    const turn1 = await runner.run("Find John Smith");
    await runner.run("What does he spend?", { continueFrom: turn1.snapshot });
    // Its steps are its own, counted from 1 as its events count them (a new prompt).
    expect(fake.runs.map((run) => run.map((s) => s.step))).toEqual([
      [1, 2],
      [1, 2],
    ]);
    // The customer's tool was bound in turn 1 (re-bound from the snapshot, with no discovery event).
    const c123 = { providerClass: "Customer", id: "c123", idType: "string" } as const;
    expect(fake.callsAt(1).map((c) => [c.toolName, c.provider])).toEqual([
      ["customer_c123_getAverageSpend", c123],
    ]);
    expect(scoreToolUse(fake, [{ tool: /_getAverageSpend$/, provider: c123 }]).score).toBe(1);
  });

  it("a resume of a resume it saw goes on in that resume's steps, though it did not see the run pause first", async () => {
    const model = new ScriptedLanguageModel()
      .callTool("searchCustomer", { name: "John Smith" })
      .callTool("customer_c123_getAverageSpend")
      .callTool("customer_c123_recentOrders")
      .respondWithText("46.83 a month; orders o1, o2.");
    const runner = new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withApproval((call) => call.toolName.startsWith("customer_"));
    const resolveProvider = (_: string, id: unknown) => new CustomerSearchTools().byId(String(id));
    const approved = (run: { pendingApprovals: readonly { approvalId: string }[] }) => ({
      approvals: Object.fromEntries(run.pendingApprovals.map((p) => [p.approvalId, { approved: true }])),
      resolveProvider,
    });
    const paused = await runner.run("John Smith's spend and orders?"); // before the recorder was attached
    const recorder = new RunRecorder();
    const watched = runner.withObserver(recorder.observe);
    const again = await watched.resume(paused.snapshot, approved(paused)); // its step 3 pauses again
    const done = await watched.resume(again.snapshot, approved(again));
    expect(done.result).toBe("46.83 a month; orders o1, o2.");
    // One run from the first resume on (its step 1 being the run's step 3; the call it ran before it, decided
    // on a pause the recorder did not see, not kept): the second resume goes on in it, its decided call
    // the step that made it.
    expect(
      recorder.allRuns.map((run) => run.map((s) => [s.step, ...s.calls.map((c) => c.toolName)])),
    ).toEqual([[[1, "customer_c123_recentOrders"], [2]]]);
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
