// A run restarts from where it started (a section read unlocked tools a backend cannot add mid-conversation).
// A resumed run started from its snapshot, whose calls waited for a decision: a restart keeps them answered
// as the resume answered them, so the model is never sent a call without its result and nothing runs twice.
import "../../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  AiSdkAdapter,
  ExpansionLimitError,
  PromptRunner,
  defineTool,
  type ModelAdapter,
  type ToolInjectionStrategy,
  type ToolLoopEvent,
} from "entity-tools";
import { CustomerSearchTools } from "../../fixtures/store/customer-search-tools.js";
import { supportPrompt } from "../../fixtures/store/support-prompt.js";
import { watchRestarts } from "../../support/restart-observers.js";
import { call, mockModel, offeredAt, text, toolResultsSeenAt } from "../../support/mock-model.js";

/** A backend that cannot add tools mid-conversation: a section read restarts the run. */
const fixedTools = (model: ReturnType<typeof mockModel>): ModelAdapter => {
  const inner = new AiSdkAdapter(model);
  return { supportsDynamicTools: false, step: (request) => inner.step(request) };
};

/** The store's customer search with discovery, on that backend: reading the policies restarts. */
const discoveringRunner = (model: ReturnType<typeof mockModel>) =>
  new PromptRunner({ adapter: fixedTools(model) })
    .withTools(new CustomerSearchTools())
    .withSystemPrompt(supportPrompt(), { company: "Acme" })
    .withToolProviderDiscovery();

describe("a run that restarts", () => {
  it("lists the tools every attempt added, each once, at the place it was first added", async () => {
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("read_section", { section_key: "policies" }),
      call("searchCustomer", { name: "Jane Smith" }),
      call("searchCustomer", { name: "John Smith" }),
      text("done"),
    );
    const runner = discoveringRunner(model);

    const run = await runner.run("Find John Smith, then Jane Smith");

    expect(run.counters.restarts).toBe(1);
    expect(run.injectedTools.map((t) => t.name)).toEqual([
      "customer_c123_getAverageSpend", // found before the restart, found again after it
      "customer_c123_recentOrders",
      "customer_c456_getAverageSpend",
      "customer_c456_recentOrders",
    ]);
  });
});

const tool = (name: string) =>
  defineTool({ name, description: `The ${name} tool`, execute: () => `${name} done` });

describe("a run's counters across restarts", () => {
  it("count a strategy's restart, and each tool the run lists once: one added again after the restart is the same addition", async () => {
    const [lookup, reset, extraA, extraB] = ["lookup", "reset", "extra_a", "extra_b"].map(tool);
    let restarted = false;
    // Adds extra_a after a lookup and extra_b after extra_a; asks once, after `reset`, to start again.
    const strategy: ToolInjectionStrategy = {
      evaluateToolResult: ({ lastToolCall: { toolName }, currentTools }) => {
        const has = (name: string) => currentTools.some((t) => t.name === name);
        if (toolName === "reset" && !restarted) return ((restarted = true), { restart: { reason: "fresh" } });
        if (toolName === "lookup" && !has("extra_a")) return { add: [extraA!] };
        return toolName === "extra_a" && !has("extra_b") ? { add: [extraB!] } : {};
      },
    };
    const model = mockModel(call("lookup"), call("reset"), call("lookup"), call("extra_a"), text("done"));
    const events: ToolLoopEvent[] = [];
    const run = await new PromptRunner({ model })
      .withTools(lookup!, reset!)
      .withInjectionStrategy(strategy)
      .withObserver((e) => events.push(e))
      .run("Look it up");

    expect(run.result).toBe("done");
    expect(offeredAt(model, 2)).toEqual(["lookup", "reset"]); // the restarted attempt, from the prompt
    const count = (type: ToolLoopEvent["type"]) => events.filter((e) => e.type === type).length;
    expect([count("RunRestarted"), count("ToolsInjected")]).toEqual([1, 3]); // extra_a is offered anew
    expect(run.injectedTools.map((t) => t.name)).toEqual(["extra_a", "extra_b"]);
    expect(run.counters).toMatchObject({ restarts: 1, toolsInjected: 2 });
    expect(run.snapshot.counters).toEqual(run.counters);
  });

  it("count one restart for a section read that expanded a section and the summarized one around it", async () => {
    const model = mockModel(call("read_section", { section_key: "policies.warranty" }), text("done"));
    const events: ToolLoopEvent[] = [];
    const run = await discoveringRunner(model)
      .withObserver((e) => events.push(e))
      .run("What is the warranty?");

    const expanded = events.flatMap((e) => (e.type === "VisibilityExpanded" ? [e.sectionKey] : []));
    expect(expanded).toEqual(["policies.warranty", "policies"]);
    expect(run.counters).toMatchObject({ restarts: 1, dynamicExpansions: 0 });
  });
});

describe("a restart, for every observer", () => {
  it("a strategy's restart is one restart for the counters, telemetry and the run log, each with its cause", async () => {
    let restarted = false;
    const strategy: ToolInjectionStrategy = {
      evaluateToolResult: () => (restarted ? {} : ((restarted = true), { restart: { reason: "fresh" } })),
    };
    const { runner, reported } = watchRestarts(
      new PromptRunner({ model: mockModel(call("lookup"), text("done")) })
        .withTools(tool("lookup"))
        .withInjectionStrategy(strategy),
    );
    const run = await runner.run("Look it up");

    expect(run.counters.restarts).toBe(1);
    const { telemetry, log } = reported();
    expect(telemetry).toEqual([{ "entity_tools.cause": "strategy" }]);
    expect(log).toEqual([{ type: "restart", step: 1, cause: "strategy", reason: "fresh" }]);
  });

  it("a section read that expands two sections is one restart for each observer, naming both sections", async () => {
    const model = mockModel(call("read_section", { section_key: "policies.warranty" }), text("done"));
    const { runner, reported } = watchRestarts(discoveringRunner(model));
    const run = await runner.run("What is the warranty?");

    const sections = ["policies.warranty", "policies"];
    const tools = ["checkRefundEligibility", "issueRefund"];
    expect(run.counters.restarts).toBe(1);
    const { telemetry, log } = reported();
    expect(telemetry).toEqual([
      {
        "entity_tools.cause": "expansion",
        "entity_tools.section": "policies.warranty",
        "entity_tools.sections": sections,
        "entity_tools.tools": tools,
      },
    ]);
    expect(log).toEqual([
      {
        type: "restart",
        step: 1,
        cause: "expansion",
        reason: expect.stringMatching(/^section "policies.warranty" unlocks/),
        sections,
        tools,
      },
    ]);
  });
});

describe("a resumed run that restarts", () => {
  it("keeps the approved call's result and runs it once", async () => {
    const refunds: string[] = [];
    const refund = defineTool<{ orderId: string }>({
      name: "refund",
      description: "Refunds an order",
      inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
      execute: ({ orderId }) => (refunds.push(orderId), `refunded ${orderId}`),
    });
    const model = mockModel(
      call("refund", { orderId: "o-1" }),
      call("read_section", { section_key: "policies" }),
      text("done"),
    );
    const runner = new PromptRunner({ adapter: fixedTools(model) })
      .withTools(refund)
      .withSystemPrompt(supportPrompt(), { company: "Acme" })
      .withApproval((c) => c.toolName === "refund");

    const paused = await runner.run("Refund o-1");
    const approvalId = paused.pendingApprovals[0]!.approvalId;
    const resumed = await runner.resume(paused.snapshot, { approvals: { [approvalId]: { approved: true } } });

    expect(resumed).toMatchObject({ status: "completed", result: "done", totalIterations: 3 });
    expect(refunds).toEqual(["o-1"]);
    expect(toolResultsSeenAt(model, 2)).toEqual(["refunded o-1"]); // the restarted step, from the answered call
    expect(resumed.counters).toMatchObject({ restarts: 1, toolCalls: 2 });
  });

  it("keeps the tools its snapshot's discoveries gave, as its history still holds them", async () => {
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      text("found him"),
      call("read_section", { section_key: "policies" }),
      call("customer_c123_getAverageSpend"),
      text("about 47 USD"),
    );
    const runner = discoveringRunner(model);
    const first = await runner.run("Find John Smith");

    const turn = await runner.run("What does he spend?", { continueFrom: first.snapshot });

    expect(turn.status).toBe("completed");
    expect(offeredAt(model, 3)).toEqual(
      expect.arrayContaining(["customer_c123_getAverageSpend", "issueRefund"]),
    );
    expect(toolResultsSeenAt(model, 4).at(-1)).not.toMatch(/Unknown tool/);
    expect(turn.counters.toolFailures).toBe(0);
    expect(turn.injectedTools).toEqual([]); // the turn's own additions: the restored tools are the first turn's
  });
});

describe("withMaxExpansions", () => {
  /** A strategy that restarts the run after every search; a wider search needs approval. One restart. */
  const restartingRunner = (model: ReturnType<typeof mockModel>) => {
    const restartAfterSearch: ToolInjectionStrategy = {
      evaluateToolResult: ({ lastToolCall }) =>
        lastToolCall.toolName === "searchCustomer" ? { restart: { reason: "searched" } } : {},
    };
    return new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withInjectionStrategy(restartAfterSearch)
      .withApproval((c) => c.toolName === "findCustomers")
      .withMaxExpansions(1);
  };
  const search = call("searchCustomer", { name: "John Smith" });

  it("bounds the run's restarts, a paused run's before its pause included", async () => {
    const model = mockModel(search, call("findCustomers", { text: "Smith" }), search);
    const paused = await restartingRunner(model).run("Find the Smiths"); // one restart, then paused
    expect(paused.counters.restarts).toBe(1);
    const approvalId = paused.pendingApprovals[0]!.approvalId;
    const resumed = restartingRunner(model).resume(JSON.parse(JSON.stringify(paused.snapshot)), {
      approvals: { [approvalId]: { approved: true } },
    });
    await expect(resumed).rejects.toBeInstanceOf(ExpansionLimitError);
  });

  it("gives a continued conversation's turn, a new prompt, its own restarts", async () => {
    const model = mockModel(search, text("found"), search, text("found again"));
    const first = await restartingRunner(model).run("Find John");
    const second = await restartingRunner(model).run("Find him again", { continueFrom: first.snapshot });
    expect([first.result, second.result]).toEqual(["found", "found again"]);
    expect(second.counters.restarts).toBe(2);
  });
});
