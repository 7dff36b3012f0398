// With pricing, a run paused for approval and resumed (or a conversation continued) reports the cost of the
// whole run, as it reports its tokens: the snapshot carries the cost so far, and the providers re-bound from
// it get their share of the requests that offer their tools and of their calls. A snapshot's cost is
// untrusted input like the rest of it: checked, and covered by the signature.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  LlmTool,
  PromptRunner,
  SnapshotError,
  SnapshotIntegrityError,
  ToolProvider,
  type RunFinishedEvent,
  type RunSnapshot,
  type ToolLoopResult,
} from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { call, mockModel, type MockTurn } from "../support/mock-model.js";

@ToolProvider({ prefix: "invoice" })
class Invoice {
  constructor(public id: string) {}

  @LlmTool({
    description: "Refund this invoice",
    parameters: { type: "object", properties: { reason: { type: "string" } }, required: ["reason"] },
  })
  refund(reason: string): string {
    return `refunded ${this.id}: ${reason}`;
  }

  @LlmTool("Show this invoice")
  show(): string {
    return `invoice ${this.id}: 40 USD, refunded`;
  }
}

const invoices = new Map([["i1", new Invoice("i1")]]);
const findInvoice = defineTool<{ id: string }, Invoice | undefined>({
  name: "findInvoice",
  description: "Find an invoice",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  execute: ({ id }) => invoices.get(id),
});
const resolveProvider = (providerClass: string, id: string | number) =>
  providerClass === "Invoice" ? invoices.get(String(id)) : undefined;

const PRICES = { input: 2, cachedInput: 0.5, output: 10 }; // USD per million tokens
const used = (
  turn: MockTurn,
  inputTokens: number,
  outputTokens: number,
  cachedInputTokens = 0,
): MockTurn => ({
  ...(turn as object),
  usage: { inputTokens, outputTokens, cachedInputTokens },
});
/** The four steps of the refund: find, refund (which a person approves), show, answer. */
const STEPS = [
  used(call("findInvoice", { id: "i1" }), 1000, 10),
  used(call("invoice_i1_refund", { reason: "late" }), 2000, 20),
  used(call("invoice_i1_show"), 3000, 30, 1000),
  used({ text: "Refunded." }, 4000, 40, 2000),
];
/** USD of each step at PRICES: uncached input, cached input, output. */
const STEP_COSTS = [
  2100e-6,
  4200e-6,
  (2000 * 2 + 1000 * 0.5 + 300) / 1e6,
  (2000 * 2 + 2000 * 0.5 + 400) / 1e6,
];

const runner = (...turns: MockTurn[]) =>
  new PromptRunner({ model: mockModel(...turns) })
    .withTools(findInvoice)
    .withToolProviderDiscovery()
    .withPricing(PRICES);
const refundsWait = (r: ReturnType<typeof runner>) => r.withApproval((c) => c.toolName.endsWith("_refund"));
const asJson = (snapshot: RunSnapshot) => JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;

async function pausedAndResumed() {
  const paused = await refundsWait(runner(...STEPS.slice(0, 2))).run("Refund i1, it was late");
  const resumed = await refundsWait(runner(...STEPS.slice(2))).resume(asJson(paused.snapshot), {
    approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
    resolveProvider,
  });
  return { paused, resumed };
}

describe("the cost of a run resumed after an approval", () => {
  it("is the whole run's, as its usage is: the same cost as the run would have had without the pause", async () => {
    const { paused, resumed } = await pausedAndResumed();
    expect(paused.status).toBe("awaiting-approval");
    expect(paused.snapshot.cost?.total).toBeCloseTo(STEP_COSTS[0]! + STEP_COSTS[1]!, 15);
    const whole = await runner(...STEPS).run("Refund i1, it was late");
    expect(resumed.status).toBe("completed");
    expect(resumed.usage).toEqual(whole.usage);
    expect(resumed.cost!.total).toBeCloseTo(
      STEP_COSTS.reduce((a, b) => a + b),
      15,
    );
    expect(resumed.cost!.perStep.map((s) => [s.iteration, s.cost])).toEqual(
      STEP_COSTS.map((cost, i) => [i + 1, expect.closeTo(cost, 15)]),
    );
    expect(resumed.cost).toEqual(whole.cost);
  });

  it("attributes the re-bound provider's offered tools and calls to it, by name", async () => {
    const { paused, resumed } = await pausedAndResumed();
    const [before] = paused.cost!.perProvider;
    const [invoice, ...others] = resumed.cost!.perProvider;
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({
      providerClass: "Invoice",
      identity: { providerClass: "Invoice", id: "i1", idType: "string" },
      calls: 2, // the approved refund and show, both after the pause
      definitionTokens: 3 * before!.definitionTokens, // offered at step 2, then at steps 3 and 4
    });
    expect(invoice!.cost).toBeGreaterThan(before!.cost);
    expect(invoice!.cost).toBeLessThanOrEqual(resumed.cost!.total);
  });
});

describe("the cost of a continued conversation's turn", () => {
  it("is the conversation's, as its usage is, its steps numbered per turn", async () => {
    const turn1 = await runner(STEPS[0]!, used({ text: "Found it." }, 2000, 20)).run("Find i1");
    const turn2 = await runner(STEPS[2]!, STEPS[3]!).run("Show it", {
      continueFrom: asJson(turn1.snapshot),
      resolveProvider,
    });
    expect(turn2.usage).toMatchObject({ inputTokens: 10_000, outputTokens: 100 });
    expect(turn2.cost!.total).toBeCloseTo(
      STEP_COSTS.reduce((a, b) => a + b),
      15,
    );
    expect(turn2.cost!.perStep.map((s) => s.iteration)).toEqual([1, 2, 1, 2]);
    expect(turn2.cost!.perProvider).toEqual([
      expect.objectContaining({
        identity: { providerClass: "Invoice", id: "i1", idType: "string" },
        calls: 1,
        definitionTokens: 3 * turn1.cost!.perProvider[0]!.definitionTokens,
      }),
    ]);
  });

  it("a one-step turn after a one-step turn: two steps, not one step reported twice", async () => {
    const turn1 = await runner(used({ text: "one" }, 100, 1)).run("first");
    const turn2 = await runner(used({ text: "two" }, 200, 2)).run("second", { continueFrom: turn1.snapshot });
    expect(turn2.cost!.perStep.map((s) => [s.iteration, s.usage.inputTokens])).toEqual([
      [1, 100],
      [1, 200],
    ]);
  });

  it("handles mode: a later turn's call through a handle found earlier is its provider's", async () => {
    const handleKey = "h".repeat(32);
    const handles: string[] = [];
    const inHandles = (...turns: MockTurn[]) =>
      new PromptRunner({ model: mockModel(...turns) })
        .withTools(findInvoice)
        .withToolProviderDiscovery({ binding: "handles", handleKey })
        .withPricing(PRICES)
        .withObserver((e) => {
          if (e.type === "ToolProviderDiscovered" && e.handle) handles.push(e.handle);
        });
    const turn1 = await inHandles(STEPS[0]!, used({ text: "Found it." }, 2000, 20)).run("Find i1");
    expect(handles).toHaveLength(1);
    const turn2 = await inHandles(
      used(call("invoice_show", { handle: handles[0] }), 3000, 30),
      used({ text: "Shown." }, 4000, 40),
    ).run("Show it", { continueFrom: asJson(turn1.snapshot), resolveProvider });
    expect(turn2.cost!.perProvider).toEqual([
      expect.objectContaining({
        identity: { providerClass: "Invoice", id: "i1", idType: "string" },
        calls: 1,
      }),
    ]);
  });
});

describe("a conversation's cost, turn by turn", () => {
  it("three turns: each RunFinished's callCost is its turn's own (as its usage and its run log's end), and they add up to the conversation's cost once", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "conversation-cost-"));
    try {
      const finished: RunFinishedEvent[] = [];
      const turns: ToolLoopResult<string>[] = [];
      // Each turn reads the whole conversation again, so its input grows: 1 000, 2 000, 3 000 tokens.
      for (const [i, input] of [1000, 2000, 3000].entries()) {
        const turn = await runner(used({ text: `answer ${i + 1}` }, input, 10))
          .withRunLog(dir)
          .withObserver((e) => void (e.type === "RunFinished" && finished.push(e)))
          .run(`question ${i + 1}`, turns.length ? { continueFrom: asJson(turns.at(-1)!.snapshot) } : {});
        turns.push(turn);
      }
      const own = [1000, 2000, 3000].map((input) => (input * PRICES.input + 10 * PRICES.output) / 1e6);
      const whole = own.reduce((a, b) => a + b);
      expect(finished.map((e) => e.callCost)).toEqual(own.map((c) => expect.closeTo(c, 15)));
      expect(finished.map((e) => e.usage.inputTokens)).toEqual([1000, 2000, 3000]);
      expect(finished.reduce((sum, e) => sum + e.callCost!, 0)).toBeCloseTo(whole, 15);
      // The result's cost (and the event's `cost`) is the conversation's so far: the latest is the whole,
      // and a sum of them counts turn 1 three times.
      expect(turns.map((t) => t.cost!.total)).toEqual(
        [own[0]!, own[0]! + own[1]!, whole].map((c) => expect.closeTo(c, 15)),
      );
      expect(finished.map((e) => e.cost!.total)).toEqual(turns.map((t) => t.cost!.total));
      const ends = readdirSync(dir)
        .filter((f) => f.endsWith(".jsonl"))
        .sort()
        .map(
          (f) =>
            JSON.parse(readFileSync(path.join(dir, f), "utf8").trim().split("\n").at(-1)!) as {
              cost: number;
            },
        );
      expect(ends.map((end) => end.cost)).toEqual(own.map((c) => expect.closeTo(c, 15)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a run paused and resumed: each call's callCost is its own part, and they add up to the run's cost", async () => {
    const calls: number[] = [];
    const observed = (r: ReturnType<typeof runner>) =>
      refundsWait(r).withObserver((e) => void (e.type === "RunFinished" && calls.push(e.callCost!)));
    const paused = await observed(runner(...STEPS.slice(0, 2))).run("Refund i1, it was late");
    const resumed = await observed(runner(...STEPS.slice(2))).resume(asJson(paused.snapshot), {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
      resolveProvider,
    });
    expect(calls).toEqual([
      expect.closeTo(STEP_COSTS[0]! + STEP_COSTS[1]!, 15),
      expect.closeTo(STEP_COSTS[2]! + STEP_COSTS[3]!, 15),
    ]);
    expect(calls[0]! + calls[1]!).toBeCloseTo(resumed.cost!.total, 15);
  });

  it("C24 each call's result has its own callCost, the same as its RunFinished's: a conversation's turns, a streamed run and a paused run's parts", async () => {
    const finished: number[] = [];
    const priced = (r: ReturnType<typeof runner>) =>
      r.withObserver((e) => void (e.type === "RunFinished" && finished.push(e.callCost!)));
    const turn1 = await priced(runner(used({ text: "one" }, 1000, 10))).run("question 1");
    const turn2 = await priced(runner(used({ text: "two" }, 2000, 10))).run("question 2", {
      continueFrom: asJson(turn1.snapshot),
    });
    const own = [1000, 2000].map((input) => (input * PRICES.input + 10 * PRICES.output) / 1e6);
    expect([turn1.callCost, turn2.callCost]).toEqual(own.map((c) => expect.closeTo(c, 15)));
    expect([turn1.callCost, turn2.callCost]).toEqual(finished);
    expect(turn1.callCost! + turn2.callCost!).toBeCloseTo(turn2.cost!.total, 15); // the latest total, each once

    const { paused, resumed } = await pausedAndResumed();
    expect([paused.callCost, resumed.callCost]).toEqual([
      expect.closeTo(STEP_COSTS[0]! + STEP_COSTS[1]!, 15),
      expect.closeTo(STEP_COSTS[2]! + STEP_COSTS[3]!, 15),
    ]);
    const streamed = await new FakePromptRunner()
      .respondWith("an answer", () => ({ text: "hi", usage: { inputTokens: 1000, outputTokens: 10 } }))
      .withPricing(PRICES)
      .stream("q").result;
    expect(streamed.callCost).toBeCloseTo(own[0]!, 15);
    // Without pricing, no cost of any kind.
    const unpriced = await new PromptRunner({ model: mockModel({ text: "hi" }) }).run("q");
    expect(unpriced).not.toHaveProperty("callCost");
    expect(unpriced).not.toHaveProperty("cost");
  });
});

describe("a snapshot's cost, read back", () => {
  const refused = async (snapshot: RunSnapshot, r = runner(used({ text: "ok" }, 1, 1))) =>
    r.run("next", { continueFrom: snapshot }).catch((e: unknown) => e);
  const priced = async (): Promise<ToolLoopResult<string>> =>
    runner(STEPS[0]!, used({ text: "Found it." }, 2000, 20)).run("Find i1");

  it("refuses a negative, NaN or infinite amount, and a total that is not its steps' sum, naming the field", async () => {
    const { snapshot } = await priced();
    const cost = snapshot.cost!;
    const withCost = (c: object) => ({ ...snapshot, cost: { ...cost, ...c } }) as RunSnapshot;
    const negative = await refused(withCost({ perStep: [{ ...cost.perStep[0]!, cost: -1 }] }));
    expect(negative).toBeInstanceOf(SnapshotError);
    expect((negative as Error).message).toContain('"cost.perStep.0.cost" must be >= 0');
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await refused(withCost({ total: bad }));
      expect(error).toBeInstanceOf(SnapshotError);
      expect((error as Error).message).toContain('"cost.total"');
    }
    const provider = { ...cost.perProvider[0]!, cost: -0.5 };
    expect(((await refused(withCost({ perProvider: [provider] }))) as Error).message).toContain(
      '"cost.perProvider.0.cost" must be >= 0',
    );
    const inflated = await refused(withCost({ total: cost.total + 1 }));
    expect(inflated).toBeInstanceOf(SnapshotError);
    expect((inflated as Error).message).toContain('"cost.total"');
  });

  it("is covered by the signature: a signed snapshot whose cost was changed is refused", async () => {
    const key = "k".repeat(32);
    const { snapshot } = await runner(STEPS[0]!, used({ text: "Found it." }, 2000, 20))
      .withSnapshotKey(key)
      .run("Find i1");
    const cheaper = { ...snapshot.cost!, perStep: [], total: 0 };
    const error = await refused({ ...snapshot, cost: cheaper }, runner().withSnapshotKey(key));
    expect(error).toBeInstanceOf(SnapshotIntegrityError);
  });

  it("is absent without pricing", async () => {
    const run = await new PromptRunner({ model: mockModel({ text: "ok" }) }).run("q");
    expect("cost" in run.snapshot).toBe(false);
  });
});
