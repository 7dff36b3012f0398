// One run, however it is cut: paused for approval, its snapshot carried through JSON into a new runner (a
// process restart), resumed, restarted once by a section read, then continued by a second conversation
// turn, it counts what the same run does uninterrupted: iterations, tokens and counters, and it lists the
// tools the run added (a turn lists its own).
import "../../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  AiSdkAdapter,
  PromptRunner,
  type ModelAdapter,
  type RunSnapshot,
  type ToolLoopEvent,
  type ToolLoopResult,
} from "entity-tools";
import { CustomerSearchTools } from "../../fixtures/store/customer-search-tools.js";
import { supportPrompt } from "../../fixtures/store/support-prompt.js";
import { call, mockModel, text, type MockTurn } from "../../support/mock-model.js";

const tokens = (inputTokens: number) => ({ usage: { inputTokens, outputTokens: 2, cachedInputTokens: 1 } });

/** Turn 1: find John, read the policies (a restart on this backend), find him again, check, answer. Turn 2. */
const script = (): MockTurn[] => [
  { ...call("searchCustomer", { name: "John Smith" }), ...tokens(10) },
  { ...call("read_section", { section_key: "policies" }), ...tokens(20) },
  { ...call("searchCustomer", { name: "John Smith" }), ...tokens(30) },
  { ...call("checkRefundEligibility", { orderId: "o-1002" }), ...tokens(40) },
  { ...text("eligible"), ...tokens(50) },
  { ...call("customer_c123_getAverageSpend"), ...tokens(60) },
  { ...text("about 40 USD a month"), ...tokens(70) },
];

/** Runs of one script on a backend that cannot add tools mid-conversation, so a section read restarts. */
function runnerOf(model: ReturnType<typeof mockModel>, events: ToolLoopEvent[], approval: boolean) {
  const inner = new AiSdkAdapter(model);
  const adapter: ModelAdapter = { supportsDynamicTools: false, step: (request) => inner.step(request) };
  const runner = new PromptRunner({ adapter })
    .withTools(new CustomerSearchTools())
    .withSystemPrompt(supportPrompt(), { company: "Acme" })
    .withToolProviderDiscovery()
    .withObserver((e) => events.push(e));
  return approval ? runner.withApproval((c) => c.toolName === "checkRefundEligibility") : runner;
}

/** A process restart: the snapshot as a store keeps it, and the providers found again by id. */
const stored = (snapshot: RunSnapshot) => JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;
const resolveProvider = (_: string, id: unknown) =>
  id === "c123" ? new CustomerSearchTools().searchCustomer("John Smith") : undefined;

const totals = (run: ToolLoopResult<unknown>) => ({
  status: run.status,
  result: run.status === "completed" ? run.result : undefined,
  totalIterations: run.totalIterations,
  usage: run.usage,
  counters: run.counters,
  injectedTools: run.injectedTools.map((t) => t.name),
});
const finished = (events: ToolLoopEvent[]) =>
  events.flatMap((e) => (e.type === "RunFinished" ? [{ iterations: e.totalIterations, ...e.usage }] : []));

describe("a run's totals", () => {
  it("are the uninterrupted run's after a pause, a process restart, a restart and a conversation turn", async () => {
    const wholeEvents: ToolLoopEvent[] = [];
    const whole = runnerOf(mockModel(...script()), wholeEvents, false);
    const first = await whole.run("Refund o-1002?");
    const second = await whole.run("What does he spend?", { continueFrom: first.snapshot });

    const cutEvents: ToolLoopEvent[] = [];
    const model = mockModel(...script());
    const paused = await runnerOf(model, cutEvents, true).run("Refund o-1002?");
    expect(paused.status).toBe("awaiting-approval");
    const approvalId = paused.pendingApprovals[0]!.approvalId;
    const resumed = await runnerOf(model, cutEvents, true).resume(stored(paused.snapshot), {
      approvals: { [approvalId]: { approved: true } },
      resolveProvider,
    });
    const continued = await runnerOf(model, cutEvents, true).run("What does he spend?", {
      continueFrom: stored(resumed.snapshot),
      resolveProvider,
    });

    // John, found in both attempts, is one provider the run discovered.
    expect(first.counters).toMatchObject({ restarts: 1, providersDiscovered: 1, toolCalls: 4 });
    // Found in both attempts, the customer's tools were added once to the run; the turn added none.
    const customerTools = first.injectedTools.map((t) => t.name);
    expect(customerTools).toContain("customer_c123_getAverageSpend");
    expect(new Set(customerTools).size).toBe(customerTools.length);
    expect(second.injectedTools).toEqual([]);
    expect(totals(resumed)).toEqual(totals(first));
    expect(totals(continued)).toEqual(totals(second));
    expect(continued.totalIterations).toBe(7);
    expect(continued.usage).toEqual({
      inputTokens: 280,
      outputTokens: 14,
      cachedInputTokens: 7,
      reasoningTokens: 0,
    });
    // Each call's RunFinished counts its own tokens: the paused and the resumed part add up to the whole.
    const [pausedPart, resumedPart, turn] = finished(cutEvents);
    const [wholeFirst, wholeTurn] = finished(wholeEvents);
    expect(pausedPart!.inputTokens + resumedPart!.inputTokens).toBe(wholeFirst!.inputTokens);
    expect([resumedPart!.iterations, turn]).toEqual([wholeFirst!.iterations, wholeTurn]);
  });
});
