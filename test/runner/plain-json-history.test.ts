// A run's history is plain JSON, with or without a snapshot key: a provider is sent it and a snapshot holds
// it (JSON.stringify, a ConversationStore, the key's signature). A value JSON has no form for (a cycle, a
// bigint, nesting past 512 levels) gets a SnapshotError naming its place and the message or call it is in:
// before anything runs when it is in the messages the caller gave, when the snapshot is written when a
// model of the caller's own made it. Never a raw TypeError or a stack overflow.
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  MaxIterationsExceededError,
  PromptRunner,
  SnapshotError,
  type ToolLoopError,
} from "entity-tools";
import { generateResult } from "entity-tools/testing";
import { mockModel, NewestMockModel } from "../support/mock-model.js";
import { refundTool } from "../support/refund-tool.js";

const KEY = "k".repeat(32);
const { refund, refunds } = refundTool();
const lookup = defineTool({ name: "lookup", description: "Look up", execute: () => "found" });

/** Data that refers to itself: `{ acme: { note, self: <the same object> } }`. */
function cyclic(): Record<string, Record<string, unknown>> {
  const acme: Record<string, unknown> = { note: "x" };
  acme.self = acme;
  return { acme };
}

/** `{ acme: { d: { d: … 1 } } }`, `levels` objects under `acme`. */
function nested(levels: number): Record<string, unknown> {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { d: value };
  return { acme: value };
}

/**
 * A model of the caller's own whose first answer calls `toolName` (id `c1`) with `metadata` (then, if
 * asked again, answers `done`).
 */
function modelWithMetadata(toolName: string, metadata: () => unknown) {
  let calls = 0;
  return new NewestMockModel({
    doGenerate: async () => {
      if (calls++ > 0) return generateResult({ text: "done" });
      const result = generateResult({ toolCalls: [{ toolName, toolCallId: "c1" }] });
      // (Its type says JSON values; a model of the caller's own can give anything.)
      const providerMetadata = metadata() as never;
      return { ...result, content: result.content.map((part) => ({ ...part, providerMetadata })) };
    },
  });
}

const userMessage = (extra: object): ModelMessage =>
  ({ role: "user", content: "q", ...extra }) as ModelMessage;

async function failure(run: Promise<unknown>): Promise<SnapshotError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(SnapshotError.isInstance(error), String(error)).toBe(true);
  return error as SnapshotError;
}

describe("a run's history JSON has no form for", () => {
  it("a cycle in a prompt message's providerOptions: refused before any model call, naming where (was a stack overflow at the model call)", async () => {
    const model = mockModel({ text: "hi" });
    const error = await failure(
      new PromptRunner({ model }).run([userMessage({ providerOptions: cyclic() })]),
    );
    expect(error.message).toBe(
      "The run's history is not plain JSON: history[0].providerOptions.acme.self refers back to " +
        "history[0].providerOptions.acme (a cycle), in message 0 (user). Nothing ran: remove it from the " +
        "messages (or the snapshot) given to the run. A provider is sent the history and a snapshot holds it (JSON.stringify, " +
        "a ConversationStore, withSnapshotKey's signature): it must be plain JSON.",
    );
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("providerOptions nested 100 000 levels: refused before any model call; 400 levels reach the provider and the snapshot", async () => {
    const model = mockModel({ text: "hi" });
    const runner = new PromptRunner({ model });
    const error = await failure(runner.run([userMessage({ providerOptions: nested(100_000) })]));
    expect(error.message).toContain(
      "history[0].providerOptions.acme.d.d.d.d.d.d.d.d… is nested more than 512 levels deep, in message 0 (user). Nothing ran",
    );
    expect(model.doGenerateCalls).toHaveLength(0);
    const run = await runner.run([userMessage({ providerOptions: nested(400) })]);
    expect(model.doGenerateCalls[0]!.prompt[0]!.providerOptions).toEqual(nested(400));
    const stored = JSON.parse(JSON.stringify(run.snapshot)) as typeof run.snapshot;
    expect(stored.history[0]).toEqual(userMessage({ providerOptions: nested(400) }));
  });

  it("the same object in two messages, or twice in one, is no cycle: the run goes on", async () => {
    const shared = { acme: { note: "x" } };
    const model = mockModel({ text: "hi" });
    const run = await new PromptRunner({ model }).run([
      userMessage({ providerOptions: shared, metadata: { again: shared } }),
      userMessage({ providerOptions: shared }),
    ]);
    expect(run.result).toBe("hi");
    expect(JSON.parse(JSON.stringify(run.snapshot.history[1])).providerOptions).toEqual(shared);
  });

  it("a bigint in the caller's messages, without a key and with one: the same error before any model call (was a TypeError at JSON.stringify)", async () => {
    const model = mockModel({ text: "hi" });
    const message = userMessage({ metadata: { acme: { budget: 10n ** 20n } } });
    const plain = await failure(new PromptRunner({ model }).run([message]));
    expect(plain.message).toContain(
      "history[0].metadata.acme.budget is a bigint, in message 0 (user). Nothing ran",
    );
    const keyed = await failure(new PromptRunner({ model }).withSnapshotKey(KEY).run([message]));
    expect(keyed.message).toBe(plain.message);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("a continued conversation's new messages with a cycle: refused before any model call", async () => {
    const turn1 = await new PromptRunner({ model: mockModel({ text: "hello" }) }).run("hi");
    const model = mockModel({ text: "again" });
    const error = await failure(
      new PromptRunner({ model }).run([userMessage({ metadata: cyclic() })], {
        continueFrom: turn1.snapshot,
      }),
    );
    // The history a snapshot would hold: the first turn's two messages, then the new one.
    expect(error.message).toContain(
      "history[2].metadata.acme.self refers back to history[2].metadata.acme (a cycle), in message 2 (user)",
    );
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("a snapshot given to resume with a bigint (not through JSON): refused before the approved call or the model runs", async () => {
    refunds.length = 0;
    const model = mockModel({ toolCalls: [{ toolName: "refund" }] }, { text: "done" });
    const runner = new PromptRunner({ model }).withTools(refund);
    const paused = await runner.run("q");
    const [first, ...rest] = paused.snapshot.history;
    const snapshot = { ...paused.snapshot, history: [{ ...first!, metadata: { acme: { n: 1n } } }, ...rest] };
    const approvals = { [paused.pendingApprovals[0]!.approvalId]: { approved: true } };
    const error = await failure(runner.resume(snapshot as typeof paused.snapshot, { approvals }));
    expect(error.message).toContain(
      "history[0].metadata.acme.n is a bigint, in message 0 (user). Nothing ran",
    );
    expect(refunds).toEqual([]);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("a model's own metadata with a cycle or a bigint stops the run at the pause, naming the call, and runs nothing (keyed or not)", async () => {
    refunds.length = 0;
    for (const runner of [
      new PromptRunner({ model: modelWithMetadata("refund", cyclic) }),
      new PromptRunner({ model: modelWithMetadata("refund", cyclic) }).withSnapshotKey(KEY),
    ]) {
      const error = await failure(runner.withTools(refund).run("q"));
      expect(error.message).toMatch(
        /^The run's history is not plain JSON: history\[1\]\.content\[0\]\.providerOptions\.acme\.self refers back to history\[1\]\.content\[0\]\.providerOptions\.acme \(a cycle\), in the call c1 \(refund\)\. The run stopped without a snapshot/,
      );
    }
    const big = await failure(
      new PromptRunner({ model: modelWithMetadata("refund", () => ({ acme: { n: 1n } })) })
        .withTools(refund)
        .run("q"),
    );
    expect(big.message).toContain(
      "history[1].content[0].providerOptions.acme.n is a bigint, in the call c1 (refund)",
    );
    expect(refunds).toEqual([]);
  });

  it("a model's own cyclic or 100 000-deep metadata reaches its next step (was a stack overflow copying it), then stops the run at its end", async () => {
    for (const [metadata, what] of [
      [cyclic, "refers back to history[1].content[0].providerOptions.acme (a cycle)"],
      [() => nested(100_000), "is nested more than 512 levels deep"],
    ] as const) {
      const model = modelWithMetadata("lookup", metadata);
      const error = await failure(new PromptRunner({ model }).withTools(lookup).run("q"));
      expect(model.doGenerateCalls).toHaveLength(2);
      expect(error.message).toContain(what);
      expect(error.message).toContain("in the call c1 (lookup). The run stopped without a snapshot");
    }
  });

  // The snapshot's copy of a class instance is a plain object (structuredClone's), without its toJSON: a
  // snapshot holding `{ limit: 10n }` that JSON.stringify refused.
  it("a model's own metadata with a class instance holding a bigint stops the run at its end, naming it (also with a toJSON of its own)", async () => {
    class Budget {
      readonly limit = 10n;
      toJSON(): string {
        return String(this.limit);
      }
    }
    const model = modelWithMetadata("lookup", () => ({ acme: new Budget() }));
    const error = await failure(new PromptRunner({ model }).withTools(lookup).run("q"));
    expect(error.message).toContain(
      "history[1].content[0].providerOptions.acme.limit is a bigint, in the call c1 (lookup). The run stopped",
    );
  });

  it("a run that fails for its own reason then gives the history's error, with the run's own error as its cause", async () => {
    const error = await failure(
      new PromptRunner({ model: modelWithMetadata("lookup", cyclic) })
        .withTools(lookup)
        .withMaxToolIterations(1)
        .run("q"),
    );
    expect(error.message).toContain("in the call c1 (lookup)");
    const cause = error.cause as ToolLoopError;
    expect(cause).toBeInstanceOf(MaxIterationsExceededError);
    expect(cause.conversationHistory.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(cause.snapshot).toBeUndefined();
  });
});
