// withSnapshotKey and a history JSON has no form for (a cycle, a bigint): the signature covers the
// snapshot's JSON form, so such a run cannot be signed. The caller gets a SnapshotError naming the value's
// place in the history and the message or call it is in: before anything runs when it is in the messages
// the caller gave, when the snapshot is written when a model of the caller's own made it.
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

/** Data that refers to itself: `{ acme: { note, self: <the same object> } }` (in a key the SDK ignores). */
function cyclic(): Record<string, Record<string, unknown>> {
  const acme: Record<string, unknown> = { note: "x" };
  acme.self = acme;
  return { acme };
}

/** A model of the caller's own whose first answer calls `toolName` (id `c1`) with cyclic metadata. */
function cyclicModel(toolName: string) {
  return new NewestMockModel({
    doGenerate: async () => {
      const result = generateResult({ toolCalls: [{ toolName, toolCallId: "c1" }] });
      // (Its type says JSON values; a model of the caller's own can give anything.)
      const providerMetadata = cyclic() as never;
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

describe("a keyed runner and a history JSON has no form for", () => {
  it("refuses the caller's messages with a cycle or a bigint before any model call, naming where it is", async () => {
    const model = mockModel({ toolCalls: [{ toolName: "refund" }] });
    const runner = new PromptRunner({ model }).withTools(refund).withSnapshotKey(KEY);
    const error = await failure(runner.run([userMessage({ metadata: cyclic() })]));
    expect(error.message).toBe(
      "The snapshot cannot be signed (withSnapshotKey): history[0].metadata.acme.self refers back to " +
        "history[0].metadata.acme (a cycle), in message 0 (user), which JSON, the form the signature " +
        "covers, cannot hold. Nothing ran. Remove it from the messages given to the run: a snapshot is plain JSON.",
    );
    const big = await failure(runner.run([userMessage({ metadata: { acme: { budget: 10n ** 20n } } })]));
    expect(big.message).toContain("history[0].metadata.acme.budget is a bigint, in message 0 (user)");
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("refuses a continued conversation's new messages with a cycle before any model call", async () => {
    const first = mockModel({ text: "hello" });
    const turn1 = await new PromptRunner({ model: first }).withSnapshotKey(KEY).run("hi");
    const model = mockModel({ text: "again" });
    const error = await failure(
      new PromptRunner({ model })
        .withSnapshotKey(KEY)
        .run([userMessage({ metadata: cyclic() })], { continueFrom: turn1.snapshot }),
    );
    // The history a snapshot would hold: the first turn's two messages, then the new one.
    expect(error.message).toContain(
      "history[2].metadata.acme.self refers back to history[2].metadata.acme (a cycle), in message 2 (user)",
    );
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("stops a run whose own model's metadata holds a cycle at the pause, naming the call, and runs nothing", async () => {
    refunds.length = 0;
    const error = await failure(
      new PromptRunner({ model: cyclicModel("refund") }).withTools(refund).withSnapshotKey(KEY).run("q"),
    );
    expect(error.message).toMatch(
      /^The snapshot cannot be signed \(withSnapshotKey\): history\[1\]\.content\[0\]\.providerOptions\.acme\.self refers back to history\[1\]\.content\[0\]\.providerOptions\.acme \(a cycle\), in the call c1 \(refund\), .* The run stopped without a snapshot\./,
    );
    expect(refunds).toEqual([]);
  });

  it("a run that fails for its own reason then gives the cycle's error, with the run's own error as its cause", async () => {
    const lookup = defineTool({ name: "lookup", description: "Look up", execute: () => "found" });
    const error = await failure(
      new PromptRunner({ model: cyclicModel("lookup") })
        .withTools(lookup)
        .withSnapshotKey(KEY)
        .withMaxToolIterations(1)
        .run("q"),
    );
    expect(error.message).toContain("in the call c1 (lookup)");
    const cause = error.cause as ToolLoopError;
    expect(cause).toBeInstanceOf(MaxIterationsExceededError);
    expect(cause.conversationHistory.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(cause.snapshot).toBeUndefined();
  });

  it("without a key the same run pauses, its snapshot keeping the cycle (no JSON form, as documented)", async () => {
    const model = mockModel({ toolCalls: [{ toolName: "refund" }] });
    const run = await new PromptRunner({ model })
      .withTools(refund)
      .run([userMessage({ metadata: cyclic() })]);
    expect(run.status).toBe("awaiting-approval");
    const { metadata } = run.snapshot.history[0] as unknown as { metadata: { acme: { self: unknown } } };
    expect(metadata.acme.self).toBe(metadata.acme);
    expect(run.snapshot.signature).toBeUndefined();
  });
});
