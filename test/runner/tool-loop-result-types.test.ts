// ToolLoopResult is a union on `status`: TypeScript knows the answer exists only once the run completed.
// The type assertions are checked by `npm run typecheck` (tsc over test/); the run makes them real.
import "../fixtures/store/register.js";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  defineTool,
  type PendingApproval,
  type SectionVisibility,
  type ToolLoopResult,
  type VisibilitySnapshot,
} from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { SpendAnswer as Answer } from "../fixtures/store/answers.js";

describe("ToolLoopResult", () => {
  it("types run.result as T after narrowing on status === 'completed', and not before", async () => {
    const fake = new FakePromptRunner().respondWithObject({
      customerName: "John",
      averageMonthlySpend: 3,
      currency: "USD",
    });
    const run = await fake.run("q", { output: Answer });
    expectTypeOf(run).toEqualTypeOf<ToolLoopResult<Answer>>();

    expectTypeOf(run.result).toEqualTypeOf<Answer | undefined>();
    // @ts-expect-error: before narrowing the run may be paused, with no answer
    const early: Answer = run.result;
    void early;

    expect(run.status).toBe("completed");
    if (run.status === "completed") {
      expectTypeOf(run.result).toEqualTypeOf<Answer>();
      expect(run.result).toBeInstanceOf(Answer);
    } else {
      expectTypeOf(run.result).toEqualTypeOf<undefined>();
      expectTypeOf(run.pendingApprovals).toEqualTypeOf<readonly PendingApproval[]>();
    }
  });

  it("a paused run has no result and lists what it waits for", async () => {
    const refund = defineTool({
      name: "refund",
      description: "Refund",
      needsApproval: true,
      execute: () => "done",
    });
    const fake = new FakePromptRunner().callTool("refund");
    const run = await fake.withTools(refund).run("q");
    expect(run.status).toBe("awaiting-approval");
    if (run.status === "awaiting-approval") {
      expect(run.result).toBeUndefined();
      expect(run.pendingApprovals.map((p) => p.toolName)).toEqual(["refund"]);
    }
  });

  it("types a snapshot's visibility as the result's: section visibilities a run takes back as `visibility`", async () => {
    const fake = new FakePromptRunner().respondWithText("done");
    const run = await fake.run("q", { visibility: { policies: "FULL" } });
    expectTypeOf(run.snapshot.visibility).toEqualTypeOf<VisibilitySnapshot>();
    expectTypeOf(run.snapshot.visibility.policies).toEqualTypeOf<SectionVisibility | undefined>();
    expect(run.snapshot.visibility).toEqual({ policies: "FULL" });
    // What a caller does with it: start another run in the same state (a type error while it was text).
    const again = await fake.respondWithText("done").run("q", { visibility: run.snapshot.visibility });
    expect(again.visibility).toEqual({ policies: "FULL" });
  });
});
