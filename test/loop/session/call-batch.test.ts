// The calls of one model response run in order, and every one of them ends with a result, whatever stops
// the batch: a repeated id, a restart a call asked for, a cancellation while a call runs.
import "../../fixtures/store/register.js";
import type { ModelMessage, ToolResultPart } from "ai";
import { describe, expect, it } from "vitest";
import {
  AiSdkAdapter,
  PromptRunner,
  ToolLoopAbortedError,
  defineTool,
  type ModelAdapter,
  type RunSnapshot,
  type ToolLoopEvent,
} from "entity-tools";
import { CustomerSearchTools } from "../../fixtures/store/customer-search-tools.js";
import { supportPrompt } from "../../fixtures/store/support-prompt.js";
import { mockModel, text } from "../../support/mock-model.js";

/** The results of the tool message after the first assistant message, as `toolName: text`. */
const resultsOf = (history: readonly ModelMessage[]) =>
  (history.find((m) => m.role === "tool")!.content as ToolResultPart[]).map(
    (r) => `${r.toolName}: ${"value" in r.output ? String(r.output.value) : r.output.type}`,
  );
const calls = (...names: [string, unknown, string?][]) => ({
  toolCalls: names.map(([toolName, input, toolCallId]) => ({ toolName, input, toolCallId })),
});

/** A refund that waits for a person's decision; each amount it refunds goes to `refunded`. */
const refundTool = (refunded: number[]) =>
  defineTool<{ amount: number }, string>({
    name: "refund",
    description: "Refund an amount",
    needsApproval: true,
    inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
    execute: ({ amount }) => (refunded.push(amount), `refunded ${amount}`),
  });

describe("call batch", () => {
  it("runs a response's calls in order; a call that repeats an id gets a result without running", async () => {
    const model = mockModel(
      calls(
        ["findCustomers", { text: "Smith" }, "a"],
        ["findCustomers", { text: "Khan" }, "a"],
        ["searchCustomer", { name: "Jane Smith" }, "b"],
      ),
      text("done"),
    );
    const run = await new PromptRunner({ model }).withTools(new CustomerSearchTools()).run("Who?");
    const results = resultsOf(run.conversationHistory);
    expect(results).toHaveLength(3);
    expect(results[0]).toMatch(/^findCustomers: \[.*John Smith.*Jane Smith/);
    expect(results[1]).toBe('findCustomers: Not run: another call in this message already has the id "a".');
    expect(results[2]).toMatch(/^searchCustomer: .*Jane Smith/);
  });

  it("ends the batch at a call that restarts the run: the later calls are answered as not run", async () => {
    const model = mockModel(
      calls(["read_section", { section_key: "policies" }], ["findCustomers", { text: "Smith" }]),
      text("done"),
    );
    const inner = new AiSdkAdapter(model);
    const fixedTools: ModelAdapter = { supportsDynamicTools: false, step: (r) => inner.step(r) };
    const events: ToolLoopEvent[] = [];
    const run = await new PromptRunner({ adapter: fixedTools })
      .withTools(new CustomerSearchTools())
      .withSystemPrompt(supportPrompt(), { company: "Acme" })
      .withObserver((e) => events.push(e))
      .run("Refund?");
    expect(run.counters.restarts).toBe(1);
    expect(events.filter((e) => e.type === "ToolInvoked" || e.type === "ToolFailed")).toMatchObject([
      { type: "ToolInvoked", toolName: "read_section" },
      {
        type: "ToolFailed",
        toolName: "findCustomers",
        reason: "not-run",
        message:
          "Not run: the run restarts with an updated prompt (an earlier call in this message changed it); call it again if you still need it.",
      },
    ]);
    expect(run.result).toBe("done");
  });

  it("answers the call a cancellation stopped, and the later ones, so the failed run's conversation is whole", async () => {
    const controller = new AbortController();
    const stop = defineTool({
      name: "stop",
      description: "Stops the run",
      inputSchema: { type: "object", properties: {} },
      execute: () => {
        controller.abort(new Error("user left"));
        return new Promise(() => {});
      },
    });
    const model = mockModel(
      calls(["findCustomers", { text: "Smith" }], ["stop", {}], ["searchCustomer", { name: "x" }]),
    );
    const error = await new PromptRunner({ model })
      .withTools(new CustomerSearchTools(), stop)
      .run("Go", { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolLoopAbortedError);
    const results = resultsOf((error as ToolLoopAbortedError).conversationHistory);
    expect(results.slice(1)).toEqual([
      "stop: The run was cancelled before this tool finished",
      "searchCustomer: The run was cancelled before this tool finished",
    ]);
    expect((error as ToolLoopAbortedError).snapshot?.history).toHaveLength(3);
  });

  it("a call that repeats the id of a call waiting for a person is answered as repeated: never asked about, never run", async () => {
    const refunded: number[] = [];
    const refund = refundTool(refunded);
    const model = mockModel(
      calls(["refund", { amount: 5 }, "r"], ["refund", { amount: 7 }, "r"]),
      text("done"),
    );
    const runner = new PromptRunner({ model }).withTools(refund);
    const paused = await runner.run("Refund");
    expect(paused.pendingApprovals.map((p) => p.input)).toEqual([{ amount: 5 }]);
    const approvals = { [paused.pendingApprovals[0]!.approvalId]: { approved: true as const } };
    const done = await runner.resume(paused.snapshot, { approvals });
    expect(refunded).toEqual([5]);
    // The repeat was answered at the pause, the waiting call on resume.
    expect(resultsOf(done.conversationHistory)).toEqual([
      'refund: Not run: another call in this message already has the id "r".',
      "refund: refunded 5",
    ]);
  });

  it("a snapshot made by hand whose waiting calls repeat one id: the call runs once, the repeat is answered as repeated", async () => {
    const refunded: number[] = [];
    const refund = refundTool(refunded);
    const model = mockModel(calls(["refund", { amount: 5 }, "r"]), text("done"));
    const runner = new PromptRunner({ model }).withTools(refund);
    const paused = await runner.run("Refund");
    const snapshot = JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot;
    const waiting = snapshot.paused!.calls[0]!;
    const twice = { ...snapshot, paused: { ...snapshot.paused!, calls: [waiting, waiting] } };
    const done = await runner.resume(twice, { approvals: { r: { approved: true } } });
    expect(done.status).toBe("completed");
    expect(refunded).toEqual([5]);
    expect(resultsOf(done.conversationHistory)).toEqual([
      "refund: refunded 5",
      'refund: Not run: another call in this message already has the id "r".',
    ]);
  });
});
