// A conversation backend that runs a response's calls at once (as Codex does): when one call waits for a
// person and another of the same turn changes the tools the thread cannot take (a section read in restart
// mode, a discovery), the pause wins whichever call ends last; the resume runs the approved call once and
// its new thread offers the tools the other call unlocked, told what was done. Restarts that several calls of
// the turn ask for add up to one that keeps what each asked for.
import "../../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  MarkdownSection,
  PromptRunner,
  PromptTemplate,
  SectionVisibility,
  type Conversation,
  type ConversationAdapter,
  type ConversationSetup,
  type ConversationTurn,
  type ModelToolCall,
  type RunSnapshot,
  type ToolLoopEvent,
} from "entity-tools";
import { CustomerSearchTools } from "../../fixtures/store/customer-search-tools.js";

/**
 * A backend with fixed tools whose first thread makes `calls` in one turn, each answered before the next
 * ends (the order in which parallel calls may end), and stops the turn when one asked for it; a later
 * thread answers at once. It records the tools each thread was opened with and what it was sent.
 */
class OneTurnBackend implements ConversationAdapter {
  readonly supportsDynamicTools = false;
  readonly newTools = "restart" as const;
  readonly opened: string[][] = [];
  readonly sent: string[] = [];
  constructor(private readonly calls: readonly ModelToolCall[]) {}

  async openConversation(setup: ConversationSetup): Promise<Conversation> {
    this.opened.push(setup.tools.map((t) => t.name));
    const first = this.opened.length === 1;
    return {
      send: async (input: string): Promise<ConversationTurn> => {
        this.sent.push(input);
        if (!first) return { text: "done", stopped: false };
        let stopped = false;
        for (const call of this.calls) stopped = (await setup.callTool(call)).stopTurn || stopped;
        return { text: "", stopped };
      },
      close: async () => {},
    };
  }
}

const refunded: string[] = [];
const refund = defineTool<{ order: string }>({
  name: "refund",
  description: "Refund an order",
  inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
  needsApproval: true,
  execute: ({ order }) => (refunded.push(order), `refunded ${order}`),
});
const checkEligibility = defineTool({
  name: "check_eligibility",
  description: "Check that an order may be refunded",
  execute: () => "eligible",
});
/** Instructions whose summarized refund policy unlocks `check_eligibility` when read. */
const policies = new PromptTemplate({
  ns: "test",
  key: "desk",
  sections: [
    new MarkdownSection({
      key: "refunds",
      title: "Refunds",
      template: "Check eligibility before a refund.",
      summary: "How refunds work.",
      visibility: SectionVisibility.SUMMARY,
      tools: [checkEligibility],
    }),
  ],
});

const search = new CustomerSearchTools();
const refundCall: ModelToolCall = { toolCallId: "r", toolName: "refund", input: { order: "a" } };
const readCall: ModelToolCall = {
  toolCallId: "s",
  toolName: "read_section",
  input: { section_key: "refunds" },
};
const searchCall: ModelToolCall = {
  toolCallId: "s",
  toolName: "searchCustomer",
  input: { name: "John Smith" },
};

/** A runner of `backend` with the refund tool and `setup`'s own, and the events of all its runs. */
function runnerOf(backend: OneTurnBackend, setup: (runner: PromptRunner) => PromptRunner) {
  const events: ToolLoopEvent[] = [];
  const runner = setup(new PromptRunner({ adapter: backend }).withTools(refund)).withObserver((e) =>
    events.push(e),
  );
  return { runner, events };
}

const cases = [
  {
    name: "a section read in restart mode",
    other: readCall,
    setup: (r: PromptRunner) => r.withSystemPrompt(policies),
    resolveProvider: undefined,
    unlocked: ["check_eligibility"],
    told: '- read_section({"section_key":"refunds"}) → ',
  },
  {
    name: "a discovery",
    other: searchCall,
    setup: (r: PromptRunner) => r.withTools(search).withToolProviderDiscovery(),
    // As another process would, the customer is found again by its id.
    resolveProvider: (_cls: string, id: unknown) => search.findCustomers("").find((c) => c.id === id),
    unlocked: ["customer_c123_getAverageSpend"],
    told: '- searchCustomer({"name":"John Smith"}) → ',
  },
];
const orders = [
  { order: "the pause ends first", calls: (other: ModelToolCall) => [refundCall, other] },
  { order: "the other call ends first", calls: (other: ModelToolCall) => [other, refundCall] },
];

describe.each(cases)("a call waits for approval while $name asks for a new thread", (c) => {
  it.each(orders)(
    "$order: the run pauses; resume runs the approved call once, and the new thread offers the new tools",
    async ({ calls }) => {
      refunded.length = 0;
      const backend = new OneTurnBackend(calls(c.other));
      const { runner, events } = runnerOf(backend, c.setup);

      const paused = await runner.run("Refund order a");
      expect(paused.status).toBe("awaiting-approval");
      expect(paused.pendingApprovals.map((p) => [p.toolName, p.input])).toEqual([["refund", { order: "a" }]]);
      expect(refunded).toEqual([]);
      expect(backend.opened).toHaveLength(1);

      const snapshot = JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot;
      const done = await runner.resume(snapshot, {
        approvals: { r: { approved: true } },
        resolveProvider: c.resolveProvider,
      });
      expect(done.status).toBe("completed");
      expect(done.result).toBe("done");
      expect(refunded).toEqual(["a"]);
      // The resumed thread has the tools the other call unlocked, and is told both calls' results.
      expect(backend.opened).toHaveLength(2);
      expect(backend.opened[1]).toEqual(expect.arrayContaining(["refund", ...c.unlocked]));
      const told = backend.sent.at(-1)!;
      expect(told).toContain(c.told);
      expect(told).toContain('- refund({"order":"a"}) → refunded a');
      // Each call ran once, across the pause.
      const ran = events.filter((e) => e.type === "ToolInvoked").map((e) => e.toolName);
      expect(ran.sort()).toEqual([c.other.toolName, "refund"].sort());
    },
  );
});

describe("a resume whose decided call asks for a new thread while another call is still undecided", () => {
  it("pauses again for the undecided call, the section read kept: the last resume's thread offers its tools", async () => {
    refunded.length = 0;
    const backend = new OneTurnBackend([readCall, refundCall]);
    const { runner, events } = runnerOf(backend, (r) =>
      r.withSystemPrompt(policies).withApproval((call) => call.toolName === "read_section"),
    );
    const paused = await runner.run("Refund order a");
    expect(paused.pendingApprovals.map((p) => p.approvalId)).toEqual(["s", "r"]);

    // The read is approved and runs; the refund, undecided, is asked about again rather than dropped.
    const again = await runner.resume(JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot, {
      approvals: { s: { approved: true } },
    });
    expect(again.status).toBe("awaiting-approval");
    expect(again.pendingApprovals.map((p) => p.approvalId)).toEqual(["r"]);
    expect(refunded).toEqual([]);

    const done = await runner.resume(JSON.parse(JSON.stringify(again.snapshot)) as RunSnapshot, {
      approvals: { r: { approved: true } },
    });
    expect(done.result).toBe("done");
    expect(refunded).toEqual(["a"]);
    expect(backend.opened).toEqual([
      ["refund", "read_section"],
      ["refund", "check_eligibility"],
    ]);
    const ran = events.filter((e) => e.type === "ToolInvoked").map((e) => e.toolName);
    expect(ran).toEqual(["read_section", "refund"]);
  });
});

const openReturn = defineTool({ name: "open_return", description: "Open a return", execute: () => "opened" });
const summarized = (
  key: string,
  template: string,
  more: Partial<ConstructorParameters<typeof MarkdownSection>[0]>,
) =>
  new MarkdownSection({
    key,
    title: key,
    template,
    summary: `About ${key}.`,
    visibility: SectionVisibility.SUMMARY,
    ...more,
  });
/** Summarized refund policies whose refund rules, summarized too, unlock `check_eligibility`; and returns. */
const manual = (withReturns: boolean) =>
  new PromptTemplate({
    ns: "test",
    key: "manual",
    sections: [
      summarized("policies", "Refund policies.", {
        children: [summarized("refunds", "Check eligibility first.", { tools: [checkEligibility] })],
      }),
      ...(withReturns ? [summarized("returns", "Open a return first.", { tools: [openReturn] })] : []),
    ],
  });
const read = (toolCallId: string, section_key: string): ModelToolCall => ({
  toolCallId,
  toolName: "read_section",
  input: { section_key },
});
const restartsOf = (events: readonly ToolLoopEvent[]) => events.filter((e) => e.type === "RunRestarted");

describe("restarts that calls of one turn ask for are one restart, which keeps what each asked for", () => {
  const reads = [read("s1", "policies.refunds"), read("s2", "returns")];

  it("two section reads: every section they read is expanded, every tool they unlock offered", async () => {
    const backend = new OneTurnBackend(reads);
    const { runner, events } = runnerOf(backend, (r) =>
      r.withSystemPrompt(manual(true)).withMaxExpansions(1),
    );

    const done = await runner.run("Refund order a");
    expect(done.result).toBe("done");
    expect(backend.opened).toEqual([
      ["refund", "read_section"],
      ["refund", "check_eligibility", "open_return"],
    ]);
    expect(restartsOf(events)).toMatchObject([
      {
        cause: "expansion",
        sections: ["policies.refunds", "policies", "returns"],
        toolNames: ["check_eligibility", "open_return"],
      },
    ]);
    // Each section names its own tools, though one restart expands all three (D09).
    expect(
      events.flatMap((e) => (e.type === "VisibilityExpanded" ? [[e.sectionKey, e.unlockedTools]] : [])),
    ).toEqual([
      ["policies.refunds", ["check_eligibility"]],
      ["policies", []],
      ["returns", ["open_return"]],
    ]);
  });

  it("two section reads beside a call that waits: the resume's thread offers every tool they unlock", async () => {
    const backend = new OneTurnBackend([reads[0]!, refundCall, reads[1]!]);
    const { runner } = runnerOf(backend, (r) => r.withSystemPrompt(manual(true)));

    const paused = await runner.run("Refund order a");
    expect(paused.status).toBe("awaiting-approval");
    const snapshot = JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot;
    await runner.resume(snapshot, { approvals: { r: { approved: true } } });
    expect(backend.opened[1]).toEqual(["refund", "check_eligibility", "open_return"]);
  });

  it("two section reads approved on resume: the resume's restart expands both", async () => {
    const backend = new OneTurnBackend(reads);
    const { runner, events } = runnerOf(backend, (r) =>
      r.withSystemPrompt(manual(true)).withApproval((c) => c.toolName === "read_section"),
    );

    const paused = await runner.run("Refund order a");
    expect(paused.pendingApprovals.map((p) => p.approvalId)).toEqual(["s1", "s2"]);
    const snapshot = JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot;
    await runner.resume(snapshot, { approvals: { s1: { approved: true }, s2: { approved: true } } });
    expect(backend.opened[1]).toEqual(["refund", "check_eligibility", "open_return"]);
    expect(restartsOf(events)).toHaveLength(1);
  });

  const reset = defineTool({ name: "reset", description: "Start over", execute: () => "reset" });
  const resetCall: ModelToolCall = { toolCallId: "x", toolName: "reset", input: {} };
  it.each([
    { order: "the strategy's restart ends last", calls: [reads[0]!, resetCall] },
    { order: "the section read ends last", calls: [resetCall, reads[0]!] },
  ])(
    "a strategy's restart and a section read ($order): the section is expanded, both reasons told",
    async ({ calls }) => {
      const backend = new OneTurnBackend(calls);
      const { runner, events } = runnerOf(backend, (r) =>
        r
          .withSystemPrompt(manual(false))
          .withTools(reset)
          .withInjectionStrategy({
            evaluateToolResult: (c) =>
              c.lastToolCall.toolName === "reset" ? { restart: { reason: "the cart was reset" } } : {},
          }),
      );

      await runner.run("Refund order a");
      expect(backend.opened[1]).toEqual(["refund", "reset", "check_eligibility"]);
      const [restart, ...more] = restartsOf(events);
      expect(more).toEqual([]);
      expect(restart).toMatchObject({ cause: "expansion", sections: ["policies.refunds", "policies"] });
      expect(restart).toHaveProperty("reason", expect.stringContaining("the cart was reset"));
      expect(restart).toHaveProperty("reason", expect.stringContaining('section "policies.refunds" unlocks'));
    },
  );
});

describe("a section read that waits while another read of the turn expands everything", () => {
  it("is answered on resume with the section's text, though nothing is left summarized", async () => {
    const backend = new OneTurnBackend([read("s1", "policies"), read("s2", "policies.refunds")]);
    const { runner } = runnerOf(backend, (r) =>
      r
        .withSystemPrompt(manual(false))
        .withApproval((c) => (c.input as { section_key?: string }).section_key === "policies"),
    );

    const paused = await runner.run("Refund order a");
    expect(paused.pendingApprovals.map((p) => p.approvalId)).toEqual(["s1"]);
    const snapshot = JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot;
    const done = await runner.resume(snapshot, { approvals: { s1: { approved: true } } });

    expect(done.result).toBe("done");
    const told = backend.sent.at(-1)!;
    expect(told).toContain(
      '- read_section({"section_key":"policies"}) → # 1 policies (policies)\n\nRefund policies.',
    );
    // Nothing is summarized: the new thread offers no read_section.
    expect(backend.opened[1]).toEqual(["refund", "check_eligibility"]);
  });
});
