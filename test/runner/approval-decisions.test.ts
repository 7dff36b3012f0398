// Decisions given to `resume` as a human-in-the-loop app gets them (a form, a JSON body): a value that is not
// a decision is refused before anything runs, and a denial's reason reads as the person wrote it.
import { describe, expect, it } from "vitest";
import {
  DecoratorMisuseError,
  defineTool,
  InvalidSettingError,
  LlmTool,
  PromptRunner,
  type RunSnapshot,
} from "entity-tools";
import { mockModel, text, toolResultsSeenAt } from "../support/mock-model.js";

/** Refunds issued: the side effect a malformed decision must neither cause nor silently refuse. */
const issued: number[] = [];
const refund = defineTool<{ amount: number }, string>({
  name: "refund",
  description: "Refund an amount",
  needsApproval: true,
  inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
  execute: ({ amount }) => {
    issued.push(amount);
    return `refunded ${amount}`;
  },
});

async function paused(): Promise<{ snapshot: RunSnapshot; id: string }> {
  const model = mockModel({ toolCalls: [{ toolName: "refund", input: { amount: 5 } }] });
  const run = await new PromptRunner({ model }).withTools(refund).run("Refund 5");
  return { snapshot: run.snapshot, id: run.pendingApprovals[0]!.approvalId };
}

describe("resume with a value that is not a decision", () => {
  it.each([
    [{ approved: "true" }, '{"approved":"true"}'],
    [{ approved: 1 }, '{"approved":1}'],
    [{}, "{}"],
    [{ approved: false, reason: 42 }, '{"approved":false,"reason":42}'],
    [null, "null"],
    ["yes", '"yes"'],
  ])(
    "%j: InvalidSettingError naming the id; no model call, nothing refused or run",
    async (decision, shown) => {
      issued.length = 0;
      const { snapshot, id } = await paused();
      const model = mockModel(text("done"));
      const runner = new PromptRunner({ model }).withTools(refund);
      const approvals = { [id]: decision } as never;
      const error = await runner.resume(snapshot, { approvals }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidSettingError);
      expect((error as Error).message).toBe(
        `approvals["${id}"] must be { approved: true } or { approved: false, reason?: string }, got ${shown}`,
      );
      expect(model.doGenerateCalls).toHaveLength(0);
      expect(issued).toEqual([]);
      // The same refusal through the stream, and the snapshot still resumes with a real decision.
      await expect(runner.resumeStream(snapshot, { approvals }).result).rejects.toThrow(InvalidSettingError);
      const run = await runner.resume(snapshot, { approvals: { [id]: { approved: true } } });
      expect(run.result).toBe("done");
      expect(issued).toEqual([5]);
    },
  );

  it("approvals that are not an object of decisions: InvalidSettingError", async () => {
    const { snapshot } = await paused();
    const runner = new PromptRunner({ model: mockModel() }).withTools(refund);
    await expect(runner.resume(snapshot, { approvals: [] as never })).rejects.toThrow(
      "approvals must be an object of decisions by approvalId, got []",
    );
  });
});

describe("a denial's reason, as the model reads it", () => {
  it.each([
    ["Too big.", "Not run: a person denied this call: Too big."],
    ["Really?", "Not run: a person denied this call: Really?"],
    ["  over the limit \n", "Not run: a person denied this call: over the limit."],
    ["   ", "Not run: a person denied this call."],
  ])("%j", async (reason, read) => {
    issued.length = 0;
    const { snapshot, id } = await paused();
    const model = mockModel(text("ok"));
    await new PromptRunner({ model })
      .withTools(refund)
      .resume(snapshot, { approvals: { [id]: { approved: false, reason } } });
    expect(toolResultsSeenAt(model, 0)).toEqual([read]);
    expect(issued).toEqual([]);
  });
});

describe("needsApproval that is not a boolean (the AI SDK's function of the input)", () => {
  const rule = (input: { amount: number }) => input.amount > 100;

  it("@LlmTool: DecoratorMisuseError when the class is declared, not a tool whose calls run unasked", () => {
    const declare = () => {
      class Refunds {
        @LlmTool({ description: "Refund an amount", needsApproval: rule as never })
        refund(amount: number): string {
          issued.push(amount);
          return `refunded ${amount}`;
        }
      }
      return Refunds;
    };
    expect(declare).toThrow(DecoratorMisuseError);
    expect(declare).toThrow(
      "needsApproval must be true or false, got function; to decide by the call's input, use runner.withApproval(call => …)",
    );
  });

  it("defineTool: InvalidSettingError naming the tool", () => {
    expect(() => defineTool({ ...refund, needsApproval: rule as never })).toThrow(
      `needsApproval of the tool "refund" must be true or false (to decide by the call's input: runner.withApproval(call => …)), got "function"`,
    );
  });
});
