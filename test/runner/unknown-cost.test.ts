// With pricing, a model call whose backend reported no usage (a custom `ModelAdapter` or conversation backend
// that leaves it out, a count that is not one) has an unknown cost: no `cost` on its step rather than 0,
// `cost.unknownCostSteps`, one `ModelWarning` per run and model; a paused run's snapshot carries it through
// a resume. A conversation backend's calls, whose tokens come with the turn's, are not unknown.
import { describe, expect, it } from "vitest";
import {
  defineTool,
  PromptRunner,
  type ConversationAdapter,
  type ModelAdapter,
  type ModelStepResult,
  type ReportedTokenUsage,
  type RunSnapshot,
  type ToolLoopEvent,
} from "entity-tools";

const PRICES = { input: 2, output: 10 }; // USD per million tokens
const refund = defineTool<{ order: string }, string>({
  name: "refund",
  description: "Refund an order",
  inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
  execute: ({ order }) => `refunded ${order}`,
});

/** A step backend that answers with `steps` in turn, each with its usage as given (none: left out). */
function adapterOf(...steps: { usage?: ReportedTokenUsage; modelId?: string; call?: boolean }[]) {
  let index = 0;
  const adapter: ModelAdapter = {
    supportsDynamicTools: true,
    step: async (): Promise<ModelStepResult> => {
      const step = steps[index++]!;
      const toolCalls = step.call
        ? [{ toolCallId: `c${index}`, toolName: "refund", input: { order: "o1" } }]
        : [];
      return {
        responseMessages: [
          {
            role: "assistant",
            content: step.call ? toolCalls.map((c) => ({ type: "tool-call" as const, ...c })) : "done",
          },
        ],
        toolCalls,
        text: step.call ? "" : "done",
        ...(step.usage ? { usage: step.usage } : {}),
        ...(step.modelId ? { modelId: step.modelId } : {}),
      };
    },
  };
  return adapter;
}

function priced(adapter: ModelAdapter | ConversationAdapter, events: ToolLoopEvent[]) {
  return new PromptRunner({ adapter })
    .withTools(refund)
    .withPricing(PRICES)
    .withObserver((e) => events.push(e));
}
const warningsOf = (events: ToolLoopEvent[]) =>
  events.flatMap((e) => (e.type === "ModelWarning" ? [e.message] : []));
const reported = { inputTokens: 1_000, outputTokens: 100 };
const REPORTED_COST = (1_000 * 2 + 100 * 10) / 1e6;

describe("C19 a custom ModelAdapter that reports no usage, with pricing", () => {
  it("the step without usage has no cost; the one with usage its own; one warning per model", async () => {
    const events: ToolLoopEvent[] = [];
    const adapter = adapterOf(
      { modelId: "m-custom", call: true },
      { modelId: "m-custom", call: true, usage: { inputTokens: undefined, outputTokens: undefined } },
      { modelId: "m-priced", usage: reported },
    );
    const run = await priced(adapter, events).run("refund o1");
    expect(run.cost!.perStep.map((s) => [s.iteration, s.modelId, s.cost])).toEqual([
      [1, "m-custom", undefined],
      [2, "m-custom", undefined],
      [3, "m-priced", expect.closeTo(REPORTED_COST, 15)],
    ]);
    expect(run.cost!.perStep.map((s) => "cost" in s)).toEqual([false, false, true]);
    expect(run.cost!.total).toBeCloseTo(REPORTED_COST, 15); // what is known, never the unknown as 0 and silent
    expect(run.cost!.unknownCostSteps).toBe(2);
    expect(warningsOf(events)).toEqual([
      expect.stringMatching(
        /^Model "m-custom" reported no token usage \(no input or output tokens\) at step 1, /,
      ),
    ]);
    const finished = events.find((e) => e.type === "RunFinished");
    expect(finished?.type === "RunFinished" && finished.cost?.unknownCostSteps).toBe(2);
  });

  it("only input or only output tokens reported: the cost is unknown (it needs both)", async () => {
    const events: ToolLoopEvent[] = [];
    const run = await priced(adapterOf({ usage: { inputTokens: 500 } }), events).run("hi");
    expect(run.usage.inputTokens).toBe(500);
    expect(run.cost).toMatchObject({ total: 0, unknownCostSteps: 1 });
    expect(warningsOf(events)).toEqual([expect.stringMatching(/^The model reported no token usage /)]);
  });

  it("a count that is not one (NaN): the cost is unknown, not that of 0 tokens; one warning says why (C25)", async () => {
    const events: ToolLoopEvent[] = [];
    const run = await priced(adapterOf({ usage: { inputTokens: NaN, outputTokens: 7 } }), events).run("hi");
    expect(run.cost).toMatchObject({ total: 0, unknownCostSteps: 1 });
    expect(warningsOf(events)).toEqual([
      expect.stringMatching(
        /^The model reported inputTokens as NaN at step 1, which is not a count of tokens, so the cost of that call is unknown, not 0: /,
      ),
    ]);
  });

  it("a paused run's snapshot carries the unknown step through JSON; the resumed run's cost has it", async () => {
    const events: ToolLoopEvent[] = [];
    const waits = (adapter: ModelAdapter) => priced(adapter, events).withApproval(() => true);
    const paused = await waits(adapterOf({ call: true })).run("refund o1");
    expect(paused.status).toBe("awaiting-approval");
    expect(paused.snapshot.cost).toMatchObject({ total: 0, perStep: [{ iteration: 1 }] });
    const stored = JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot;
    const resumed = await waits(adapterOf({ usage: reported })).resume(stored, {
      approvals: { [paused.pendingApprovals[0]!.approvalId]: { approved: true } },
    });
    expect(resumed.status).toBe("completed");
    expect(resumed.cost!.perStep.map((s) => [s.iteration, s.cost])).toEqual([
      [1, undefined],
      [2, expect.closeTo(REPORTED_COST, 15)],
    ]);
    expect(resumed.cost).toMatchObject({ total: expect.closeTo(REPORTED_COST, 15), unknownCostSteps: 1 });
  });
});

/** A conversation backend whose turn calls refund once, then ends with `usage` (none: left out). */
const conversationOf = (usage?: ReportedTokenUsage): ConversationAdapter => ({
  supportsDynamicTools: false,
  newTools: "restart",
  openConversation: async (setup) => ({
    send: async () => {
      await setup.callTool({ toolCallId: "t1", toolName: "refund", input: { order: "o1" } });
      return { text: "done", stopped: false, modelId: "agent", ...(usage ? { usage } : {}) };
    },
    close: async () => {},
  }),
});

describe("C19 on a conversation backend", () => {
  it("the turn's calls, whose tokens come with the turn's, are not unknown: no warning", async () => {
    const events: ToolLoopEvent[] = [];
    const run = await priced(conversationOf(reported), events).run("refund o1");
    expect(warningsOf(events)).toEqual([]);
    expect(run.cost!.unknownCostSteps).toBeUndefined();
    expect(run.cost!.total).toBeCloseTo(REPORTED_COST, 15);
  });

  it("a turn that reports no usage: its step's cost is unknown, with the warning", async () => {
    const events: ToolLoopEvent[] = [];
    const run = await priced(conversationOf(), events).run("refund o1");
    expect(run.cost).toMatchObject({ total: 0, unknownCostSteps: 1 });
    expect(run.cost!.perStep.map((s) => "cost" in s)).toEqual([true, false]); // the call; the turn's end
    expect(warningsOf(events)).toEqual([
      expect.stringMatching(/^Model "agent" reported no token usage .* at step 2,/),
    ]);
  });
});
