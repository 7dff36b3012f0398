// A conversation backend that runs a response's calls at once (as Codex does), each call its own step: when
// several of them need a person's decision, the run pauses with every one of them, and resume decides each.
import { describe, expect, it } from "vitest";
import {
  defineTool,
  PromptRunner,
  type Conversation,
  type ConversationAdapter,
  type ConversationSetup,
  type ConversationToolResult,
  type ConversationTurn,
  type ModelToolCall,
  type RunSnapshot,
  type ToolLoopEvent,
} from "entity-tools";

/**
 * A backend whose first thread makes all of `calls` at once and, like Codex, ends its turn as soon as a
 * result asks for a stop, without waiting for the calls still running; a later thread answers with what it
 * was sent.
 */
class ParallelBackend implements ConversationAdapter {
  readonly supportsDynamicTools = false;
  readonly newTools = "restart" as const;
  readonly sent: string[] = [];
  constructor(private readonly calls: readonly ModelToolCall[]) {}

  async openConversation(setup: ConversationSetup): Promise<Conversation> {
    const first = this.sent.length === 0;
    return {
      send: async (input: string): Promise<ConversationTurn> => {
        this.sent.push(input);
        if (!first) return { text: `answered after: ${input}`, stopped: false };
        const stops = this.calls.map((call) => setup.callTool(call).then(stopsTurn));
        const stopped = await Promise.race([Promise.all(stops).then(() => false), ...stops.map(whenTrue)]);
        turnEnded();
        return { text: "", stopped };
      },
      close: async () => {},
    };
  }
}

const stopsTurn = (result: ConversationToolResult) => result.stopTurn;
const whenTrue = (stop: Promise<boolean>) => stop.then((s) => (s ? true : new Promise<never>(() => {})));

const refunded: string[] = [];
const refund = defineTool<{ order: string }>({
  name: "refund",
  description: "Refund an order",
  inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
  needsApproval: true,
  execute: ({ order }) => (refunded.push(order), `refunded ${order}`),
});
/** Resolved when the first thread's turn ends: a call of `note` is still running then. */
let turnEnded!: () => void;
const ended = new Promise<void>((resolve) => (turnEnded = resolve));
const note = defineTool({
  name: "note",
  description: "Take a note",
  execute: () => ended.then(() => "noted"),
});
const call = (toolCallId: string, order?: string): ModelToolCall =>
  order === undefined
    ? { toolCallId, toolName: "note", input: {} }
    : { toolCallId, toolName: "refund", input: { order } };

describe("calls run at once that need approval (a conversation backend)", () => {
  it("the run pauses with every held call, once the calls still running ended (their results kept); resume decides each, the model reads each result", async () => {
    refunded.length = 0;
    const backend = new ParallelBackend([call("a", "a"), call("n"), call("b", "b")]);
    const requested: string[] = [];
    const runner = new PromptRunner({ adapter: backend })
      .withTools(refund, note)
      .withObserver((e: ToolLoopEvent) => {
        if (e.type === "ApprovalRequested") requested.push(e.approvalId);
      });
    const paused = await runner.run("Refund a and b");
    expect(paused.status).toBe("awaiting-approval");
    expect(paused.pendingApprovals.map((p) => [p.approvalId, p.input])).toEqual([
      ["a", { order: "a" }],
      ["b", { order: "b" }],
    ]);
    expect(requested).toEqual(["a", "b"]);
    expect(refunded).toEqual([]);
    const snapshot = JSON.parse(JSON.stringify(paused.snapshot)) as RunSnapshot;
    expect(snapshot.paused).toMatchObject({
      calls: [{ toolCallId: "a" }],
      more: [{ calls: [{ toolCallId: "b" }] }],
    });

    // Only b decided: b runs, a is asked again, alone.
    const again = await runner.resume(snapshot, { approvals: { b: { approved: true } } });
    expect(again.pendingApprovals.map((p) => p.approvalId)).toEqual(["a"]);
    expect(refunded).toEqual(["b"]);

    const done = await runner.resume(JSON.parse(JSON.stringify(again.snapshot)) as RunSnapshot, {
      approvals: { a: { approved: false, reason: "not a" } },
    });
    expect(done.status).toBe("completed");
    expect(refunded).toEqual(["b"]);
    const told = backend.sent.at(-1)!;
    expect(told).toContain('- refund({"order":"a"}) → Not run: a person denied this call: not a.');
    expect(told).toContain('- refund({"order":"b"}) → refunded b');
    expect(told).toContain("- note({}) → noted");
    // Every call of the history has its one result, in the tool message after its own model message.
    const history = done.conversationHistory;
    for (const id of ["a", "n", "b"]) {
      const asked = history.findIndex(
        (m) => m.role === "assistant" && JSON.stringify(m.content).includes(`"toolCallId":"${id}"`),
      );
      expect(history[asked + 1]).toMatchObject({ role: "tool", content: [{ toolCallId: id }] });
    }
  });
});
