// withMaxToolIterations bounds the model calls of a run, however the run is cut: a restart from the prompt
// (a section read on a backend without dynamic tools, a strategy's restart) and a pause resumed in another
// process (the snapshot through JSON) go on counting; a continued conversation's turn, a new prompt, has its
// own allowance, and keeps it across its own pause. The rule is the session's, so a conversation backend
// (Codex, Claude Code) keeps it too.
import "../../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  AiSdkAdapter,
  MaxIterationsExceededError,
  PromptRunner,
  defineTool,
  type Conversation,
  type ConversationAdapter,
  type ConversationSetup,
  type ModelAdapter,
  type RunSnapshot,
  type ToolLoopResult,
} from "entity-tools";
import { CustomerSearchTools } from "../../fixtures/store/customer-search-tools.js";
import { supportPrompt } from "../../fixtures/store/support-prompt.js";
import { call, mockModel, text } from "../../support/mock-model.js";

/** A process restart: the snapshot as a store keeps it. */
const stored = (snapshot: RunSnapshot) => JSON.parse(JSON.stringify(snapshot)) as RunSnapshot;
const approveAll = (run: ToolLoopResult<unknown>) =>
  Object.fromEntries(run.pendingApprovals.map((p) => [p.approvalId, { approved: true }]));

const lookup = defineTool({ name: "lookup", description: "Looks something up", execute: () => "found" });
const refund = defineTool({ name: "refund", description: "Refunds", execute: () => "refunded" });
/** Plain tools; a refund waits for a person's approval. */
const runnerOf = (options: ConstructorParameters<typeof PromptRunner>[0]) =>
  new PromptRunner(options)
    .withTools(lookup, refund)
    .withApproval((c) => c.toolName === "refund")
    .withMaxToolIterations(3);

/** The run's error, with the model calls made when it failed. */
async function failure(run: Promise<unknown>): Promise<MaxIterationsExceededError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MaxIterationsExceededError);
  return error as MaxIterationsExceededError;
}

describe("withMaxToolIterations, for the whole run", () => {
  it("counts the model calls before a restart from the prompt (a section read on a backend without dynamic tools)", async () => {
    const model = mockModel(
      call("searchCustomer", { name: "John Smith" }),
      call("read_section", { section_key: "policies" }), // restarts from the prompt
      call("searchCustomer", { name: "John Smith" }),
      call("searchCustomer", { name: "John Smith" }),
      text("never asked"),
    );
    const inner = new AiSdkAdapter(model);
    const adapter: ModelAdapter = { supportsDynamicTools: false, step: (request) => inner.step(request) };
    const runner = new PromptRunner({ adapter })
      .withTools(new CustomerSearchTools())
      .withSystemPrompt(supportPrompt(), { company: "Acme" })
      .withMaxToolIterations(3);

    const error = await failure(runner.run("Find John Smith"));

    expect(model.doGenerateCalls).toHaveLength(3);
    expect(error).toMatchObject({ maxIterations: 3, totalIterations: 3 });
    expect(error.snapshot?.counters.restarts).toBe(1);
  });

  it("counts a paused run's model calls before its pause when it is resumed", async () => {
    const model = mockModel(
      call("lookup"),
      call("refund"),
      call("lookup"),
      call("lookup"),
      text("never asked"),
    );
    const paused = await runnerOf({ model }).run("Refund it");
    expect(paused.status).toBe("awaiting-approval");

    const resumed = runnerOf({ model }).resume(stored(paused.snapshot), { approvals: approveAll(paused) });
    const error = await failure(resumed);

    expect(model.doGenerateCalls).toHaveLength(3); // 2 before the pause, 1 after it
    expect(error.totalIterations).toBe(3);
  });

  it("gives a continued conversation's turn its own model calls, and keeps counting them across its pause", async () => {
    const model = mockModel(
      ...[call("lookup"), call("lookup"), text("first answer")], // turn 1: all 3 of its calls
      ...[call("lookup"), call("refund")], // turn 2: 2 calls, then paused
      ...[call("lookup"), call("lookup"), text("never asked")], // turn 2 resumed: 1 call left
    );
    const first = await runnerOf({ model }).run("Look it up");
    const turn = await runnerOf({ model }).run("Now refund it", { continueFrom: stored(first.snapshot) });
    expect(turn).toMatchObject({ status: "awaiting-approval", totalIterations: 5 });

    const resumed = runnerOf({ model }).resume(stored(turn.snapshot), { approvals: approveAll(turn) });
    const error = await failure(resumed);

    expect(model.doGenerateCalls).toHaveLength(6);
    expect(error.totalIterations).toBe(6); // the conversation's calls; the limit counted the turn's 3
  });
});

/** A conversation backend whose model calls `lookup` until told to stop, then `refund` in its second call. */
class RunawayBackend implements ConversationAdapter {
  readonly supportsDynamicTools = false;
  readonly newTools = "restart" as const;
  calls = 0;

  openConversation(setup: ConversationSetup): Promise<Conversation> {
    return Promise.resolve({
      send: async () => {
        for (;;) {
          const toolName = ++this.calls === 2 ? "refund" : "lookup";
          const result = await setup.callTool({ toolCallId: `c${this.calls}`, toolName, input: {} });
          if (result.stopTurn) return { text: "", stopped: true };
        }
      },
      close: () => Promise.resolve(),
    });
  }
}

describe("withMaxToolIterations on a conversation backend", () => {
  it("counts a paused run's calls before its pause when it is resumed in a new thread", async () => {
    const backend = new RunawayBackend();
    const paused = await runnerOf({ adapter: backend }).run("Refund it");
    expect(paused.status).toBe("awaiting-approval");

    const error = await failure(
      runnerOf({ adapter: backend }).resume(stored(paused.snapshot), { approvals: approveAll(paused) }),
    );

    expect(backend.calls).toBe(4); // the 4th call of the run is refused
    expect(error.totalIterations).toBe(3);
  });
});
