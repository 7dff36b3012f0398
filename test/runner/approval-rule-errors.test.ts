// A `withApproval` rule is the application's own code: when it throws, rejects or answers something other
// than a boolean, the caller gets an `ApprovalRuleError` naming the rule, the tool and the call (what it
// threw as `cause`), the model reads only that the call did not run, and the snapshot resumes once the rule
// is fixed. Before, the run failed with "The run failed: boom", and a rule answering `undefined` ran the
// call unasked.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ApprovalRuleError,
  defineTool,
  PromptRunner,
  readRunLog,
  ToolLoopAbortedError,
  ToolLoopError,
  type ApprovalPredicate,
  type Conversation,
  type ConversationAdapter,
  type ConversationSetup,
  type ToolLoopEvent,
} from "entity-tools";
import { ScriptedLanguageModel, type ScriptedTurn } from "entity-tools/testing";

/** Refunds issued: what a broken rule must never let through. */
const issued: number[] = [];
const refund = defineTool<{ amount: number }, string>({
  name: "refund",
  description: "Refund an amount",
  inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
  execute: ({ amount }) => {
    issued.push(amount);
    return `refunded ${amount}`;
  },
});

const SECRET = "postgres://rules:hunter2@db.internal/approvals";
const thrown = new Error(`cannot reach ${SECRET}`);
/** What the model reads for the call whose rule broke. */
const NOT_RUN = "Not run: the application's approval rule failed (the operator can see why).";
const refundCall = (id: string, amount = 5) => ({ toolCallId: id, toolName: "refund", input: { amount } });

/** A model playing `turns` in order, through `generate` or `stream`: one script for both. */
function scripted(...turns: ScriptedTurn[]): ScriptedLanguageModel {
  const model = new ScriptedLanguageModel();
  for (const [i, turn] of turns.entries()) model.respondWith(`turn ${i + 1}`, () => turn);
  return model;
}

/** The tool results the model read at its call `index` (from 0). */
const resultsSeenAt = (model: ScriptedLanguageModel, index: number) =>
  (model.calls[index]?.prompt ?? []).flatMap((m) =>
    m.role === "tool"
      ? m.content.flatMap((p) => (p.type === "tool-result" && "value" in p.output ? [p.output.value] : []))
      : [],
  );

type Mode = "run" | "stream";
const modes: Mode[] = ["run", "stream"];
const start = (runner: PromptRunner, mode: Mode) =>
  mode === "run" ? runner.run("Refund 5") : runner.stream("Refund 5").result;

describe.each(modes)("a withApproval rule that breaks (%s)", (mode) => {
  it.each<[string, ApprovalPredicate]>([
    [
      "throws",
      () => {
        throw thrown;
      },
    ],
    ["rejects", () => Promise.reject(thrown)],
  ])(
    "%s: ApprovalRuleError naming the rule, tool and call, cause what it threw; the model never reads it",
    async (_how, rule) => {
      issued.length = 0;
      const model = scripted({ toolCalls: [refundCall("c1")] }, { text: "Refund is on hold." });
      const events: ToolLoopEvent[] = [];
      const runner = new PromptRunner({ model })
        .withTools(refund)
        .withApproval(rule)
        .withObserver((e) => events.push(e));
      const error = await start(runner, mode).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ApprovalRuleError);
      expect(ToolLoopError.isInstance(error)).toBe(true);
      const broke = error as ApprovalRuleError;
      expect([broke.rule, broke.toolName, broke.toolCallId, broke.cause]).toEqual([
        "withApproval",
        "refund",
        "c1",
        thrown,
      ]);
      expect(broke.message).toBe(
        `The approval rule (runner.withApproval) failed for the call "c1" of "refund", which did not run: cannot reach ${SECRET}. Fix the rule, then resume from this error's snapshot`,
      );
      expect(issued).toEqual([]);
      // The call is answered in the snapshot, without what was thrown; observers get it as `cause`.
      expect(JSON.stringify(broke.snapshot)).not.toContain("hunter2");
      expect(broke.conversationHistory.at(-1)).toEqual({
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "refund",
            output: { type: "error-text", value: NOT_RUN },
          },
        ],
      });
      expect(events.filter((e) => e.type === "ToolFailed")).toEqual([
        expect.objectContaining({ toolCallId: "c1", reason: "not-run", message: NOT_RUN, cause: thrown }),
      ]);
      expect(events.at(-1)).toEqual(
        expect.objectContaining({ type: "RunFinished", status: "failed", error }),
      );

      // Resumed with the rule fixed: the model reads that the call did not run, and nothing of the secret.
      const next = await new PromptRunner({ model })
        .withTools(refund)
        .withApproval(() => false)
        .resume(broke.snapshot!);
      expect(next.result).toBe("Refund is on hold.");
      expect(resultsSeenAt(model, 1)).toEqual([NOT_RUN]);
      expect(JSON.stringify(model.calls.map((c) => c.prompt))).not.toContain("hunter2");
    },
  );

  it.each<[string, unknown, string]>([
    ['"yes"', "yes", '"yes"'],
    ["undefined (a rule that forgot its return)", undefined, "undefined"],
    ['a promise of "no"', Promise.resolve("no"), '"no"'],
    ["1", 1, "1"],
    ["null", null, "null"],
  ])(
    "a rule returning %s: ApprovalRuleError saying it must return a boolean; nothing runs, nobody is asked",
    async (_what, answer, shown) => {
      issued.length = 0;
      const model = scripted({ toolCalls: [refundCall("c2")] });
      const events: ToolLoopEvent[] = [];
      const runner = new PromptRunner({ model })
        .withTools(refund)
        .withApproval(() => answer as boolean)
        .withObserver((e) => events.push(e));
      const error = await start(runner, mode).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApprovalRuleError);
      expect((error as Error).message).toBe(
        `The approval rule (runner.withApproval) returned ${shown} for the call "c2" of "refund", which did not run: it must return true or false (or a promise of one). Fix the rule, then resume from this error's snapshot`,
      );
      expect((error as Error).cause).toBeUndefined();
      expect(issued).toEqual([]);
      expect(events.some((e) => e.type === "ApprovalRequested")).toBe(false);
      // Observers read what went wrong: there was nothing thrown, so the error itself.
      expect(events.filter((e) => e.type === "ToolFailed")).toEqual([
        expect.objectContaining({ toolCallId: "c2", message: NOT_RUN, cause: error }),
      ]);
    },
  );
});

describe("a withApproval rule that breaks on a later call of a paused message", () => {
  it("the run fails with every call answered, none left waiting: the held one not run, the broken one says why", async () => {
    issued.length = 0;
    const model = scripted({ toolCalls: [refundCall("c3", 500), refundCall("c4", 7)] }, { text: "ok" });
    const rule: ApprovalPredicate = (call) => {
      const { amount } = call.input as { amount: number };
      if (amount === 7) throw thrown;
      return amount > 100;
    };
    const error = (await new PromptRunner({ model })
      .withTools(refund)
      .withApproval(rule)
      .run("Refund both")
      .catch((e: unknown) => e)) as ApprovalRuleError;
    expect(error).toBeInstanceOf(ApprovalRuleError);
    expect([error.toolCallId, error.cause]).toEqual(["c4", thrown]);
    const results = (error.conversationHistory.at(-1)!.content as { output: { value: string } }[]).map(
      (p) => p.output.value,
    );
    expect(results).toEqual(["Not run: the run ended before this call ran.", NOT_RUN]);
    expect(error.snapshot?.paused).toBeUndefined();
    expect(issued).toEqual([]);
  });
});

/** A conversation backend (as Codex or Claude Code) whose model calls `refund` once per turn. */
class RefundingBackend implements ConversationAdapter {
  readonly supportsDynamicTools = false;
  readonly newTools = "restart" as const;

  async openConversation(setup: ConversationSetup): Promise<Conversation> {
    return {
      send: async () => {
        const result = await setup.callTool(refundCall("c7"));
        return { text: "done", stopped: result.stopTurn, usage: { inputTokens: 10, outputTokens: 1 } };
      },
      close: async () => {},
    };
  }
}

describe("a withApproval rule that breaks on a conversation backend", () => {
  it("the same ApprovalRuleError, the call answered without what was thrown", async () => {
    issued.length = 0;
    const events: ToolLoopEvent[] = [];
    const error = (await new PromptRunner({ adapter: new RefundingBackend() })
      .withTools(refund)
      .withApproval(() => Promise.reject(thrown))
      .withObserver((e) => events.push(e))
      .run("Refund 5")
      .catch((e: unknown) => e)) as ApprovalRuleError;
    expect(error).toBeInstanceOf(ApprovalRuleError);
    expect([error.toolCallId, error.cause]).toEqual(["c7", thrown]);
    expect(issued).toEqual([]);
    expect(events.filter((e) => e.type === "ToolFailed")).toEqual([
      expect.objectContaining({ toolCallId: "c7", message: NOT_RUN, cause: thrown }),
    ]);
    expect(JSON.stringify(error.snapshot)).not.toContain("hunter2");
  });
});

describe("the run log of a run whose approval rule broke", () => {
  it.each([true, false])(
    "recordContent %s: the call's record says it did not run, the end record names ApprovalRuleError; the thrown text only with recordContent",
    async (recordContent) => {
      const dir = mkdtempSync(path.join(tmpdir(), "approval-rule-"));
      try {
        const model = scripted({ toolCalls: [refundCall("c5")] });
        await new PromptRunner({ model })
          .withTools(refund)
          .withApproval(() => {
            throw thrown;
          })
          .withRunLog(dir, { recordContent })
          .run("Refund 5")
          .catch(() => undefined);
        const [file] = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
        const text = readFileSync(path.join(dir, file!), "utf8");
        const { records } = readRunLog(text);
        expect(records).toContainEqual(
          expect.objectContaining({ type: "call", id: "c5", ok: false, reason: "not-run" }),
        );
        const end = records.find((r) => r.type === "end");
        expect(end).toEqual(expect.objectContaining({ status: "failed" }));
        expect((end as { error?: { name: string } }).error?.name).toBe("ApprovalRuleError");
        expect(text.includes("hunter2")).toBe(recordContent);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe("a rule cancelled while it judges", () => {
  it("the run's signal wins: ToolLoopAbortedError, not the rule's failure", async () => {
    const controller = new AbortController();
    const model = scripted({ toolCalls: [refundCall("c6")] });
    const rule: ApprovalPredicate = () => {
      controller.abort(new Error("the page went away"));
      return Promise.reject(new Error("rule saw the abort"));
    };
    const error = await new PromptRunner({ model })
      .withTools(refund)
      .withApproval(rule)
      .run("Refund 5", { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolLoopAbortedError);
  });
});
