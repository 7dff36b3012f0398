// The call pipeline's order on the AI SDK loop (run and stream): resolve and validate first, then
// approval, then invoke. A call that cannot run is never put to a person or to an approval rule, and a
// rule judges the input the tool would get: validated, in the method's declared types.
import "../../fixtures/register.js";
import { describe, expect, it } from "vitest";
import { defineTool, PromptRunner, ToolLoopAbortedError, type PendingApproval } from "entity-tools";
import { Checking, Savings } from "../../fixtures/colliding-accounts.js";
import { Planner, Place } from "../../fixtures/planner.js";
import { FakePromptRunner } from "entity-tools/testing";
import { call, mockModel, text, toolResultsSeenAt } from "../../support/mock-model.js";

const refund = (ran: unknown[]) =>
  defineTool<{ amount: number }>({
    name: "refund",
    description: "Refund an amount",
    inputSchema: {
      type: "object",
      properties: { amount: { type: "number" } },
      required: ["amount"],
      additionalProperties: false,
    },
    needsApproval: true,
    execute: (input) => ran.push(input),
  });

const modes = [
  ["run()", (runner: FakePromptRunner, prompt: string) => runner.run(prompt)],
  ["stream()", (runner: FakePromptRunner, prompt: string) => runner.stream(prompt).result],
] as const;

describe.each(modes)("the call pipeline on the AI SDK loop, %s", (_mode, start) => {
  it("a needsApproval tool called with invalid input gets Invalid arguments; the run does not pause", async () => {
    const ran: unknown[] = [];
    const fake = new FakePromptRunner().withTools(refund(ran));
    fake.callTool("refund", { amount: "everything" }).respondWithText("sorry");
    const run = await start(fake, "Refund it");
    expect([run.status, run.pendingApprovals]).toEqual(["completed", []]);
    expect(fake.calls.map((c) => c.resultText)).toEqual([
      'Invalid arguments for "refund": field "amount" must be number.',
    ]);
    expect(ran).toEqual([]);
  });

  it("a withApproval predicate is not asked about a call with invalid input, and sees valid input typed", async () => {
    const judged: PendingApproval[] = [];
    const pay = defineTool<{ amount: number }>({
      ...refund([]),
      name: "pay",
      needsApproval: false,
      execute: ({ amount }) => `paid ${amount}`,
    });
    const fake = new FakePromptRunner()
      .withTools(pay)
      .withApproval(
        (c) => judged.push(c) > 0 && (c.input as { amount: number }).amount.toFixed(2) === "99.00",
      );
    fake
      .callTools([
        ["pay", { amount: "everything" }],
        ["pay", { amount: 12.5 }],
      ])
      .respondWithText("done");
    const run = await start(fake, "Pay");
    expect(run.status).toBe("completed");
    expect(judged.map((c) => c.input)).toEqual([{ amount: 12.5 }]);
    expect(fake.calls.map((c) => c.resultText)).toEqual([
      'Invalid arguments for "pay": field "amount" must be number.',
      "paid 12.5",
    ]);
  });
});

describe("what an approval rule judges", () => {
  it("the validated input in the method's declared types (a Date, a class instance), as a copy", async () => {
    const seen: unknown[] = [];
    const model = mockModel(
      call("visit", {
        when: "2026-11-22T10:00:00.000Z",
        where: { street: "5 Main St", city: "Leeds" },
        trips: [],
      }),
      text("planned"),
    );
    const runner = new PromptRunner({ model }).withTools(new Planner()).withApproval((c) => {
      const input = c.input as { when: Date; where: Place };
      seen.push(input.when instanceof Date, input.when.toISOString(), input.where instanceof Place);
      input.where.street = "changed by the rule";
      return false;
    });
    await runner.run("Plan it");
    expect(seen).toEqual([true, "2026-11-22T10:00:00.000Z", true]);
    expect(toolResultsSeenAt(model, 1)[0]).toMatch(/at 5 Main St, Leeds/);
  });

  it("a rule whose promise never settles does not keep the run alive once its signal aborts", async () => {
    const controller = new AbortController();
    const model = mockModel(call("pay", {}), text("never"));
    const pay = defineTool({ name: "pay", description: "Pay", execute: () => "paid" });
    const runner = new PromptRunner({ model }).withTools(pay).withApproval(() => {
      controller.abort(new Error("the user left"));
      return new Promise<boolean>(() => {});
    });
    const failure = await runner.run("Pay", { signal: controller.signal }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ToolLoopAbortedError);
  });

  it("a rule on the name's end catches a provider tool renamed for a collision (the method stays last)", async () => {
    const accounts = defineTool({
      name: "accounts",
      description: "Accounts",
      execute: () => [new Checking("42"), new Savings("42")],
    });
    const model = mockModel(call("accounts"), (o) => ({
      toolCalls: (o.tools ?? []).filter((t) => t.name.startsWith("acct_")).map((t) => ({ toolName: t.name })),
    }));
    const run = await new PromptRunner({ model })
      .withTools(accounts)
      .withToolProviderDiscovery()
      .withApproval((c) => /_close$/.test(c.toolName))
      .run("Close both");
    expect(run.status).toBe("awaiting-approval");
    expect(run.pendingApprovals.map((p) => [p.toolName, p.provider?.providerClass])).toEqual([
      ["acct_42_close", "Checking"],
      [expect.stringMatching(/^acct_42_[0-9a-z]{16}_close$/), "Savings"],
    ]);
  });
});
