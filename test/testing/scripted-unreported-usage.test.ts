// A scripted turn can be a model call whose provider reported no usage (`usage: { inputTokens: undefined,
// outputTokens: undefined }`, as the AI SDK's provider spec says it), so the unknown-cost path is testable with
// FakePromptRunner, without a custom ModelAdapter. On both lanes, whole and streamed: ai 6 and ai 7 read the
// scripted model's usage apart.
import { describe, expect, it } from "vitest";
import type { ToolLoopEvent } from "entity-tools";
import { FakePromptRunner, generateResult } from "entity-tools/testing";

const PRICES = { input: 2, output: 10 }; // USD per million tokens
const KNOWN_COST = (1_000 * 2 + 100 * 10) / 1e6;

/** Step 1 reports `unreported` as its usage; step 2 answers with 1,000 in and 100 out. */
function fake(unreported: { inputTokens: number | undefined; outputTokens: number | undefined }) {
  return new FakePromptRunner()
    .respondWith("an answer without usage", () => ({ text: "", usage: unreported, toolCalls: [] }))
    .respondWith("a priced answer", () => ({
      text: "done",
      usage: { inputTokens: 1_000, outputTokens: 100 },
    }));
}

describe.each(["run", "stream"] as const)(
  "C21 a scripted turn whose provider reported no usage (%s)",
  (how) => {
    const play = async (runner: ReturnType<typeof fake>) => {
      const events: ToolLoopEvent[] = [];
      const observed = runner.withPricing(PRICES).withObserver((e) => events.push(e));
      const run = how === "run" ? await observed.run("hi") : await observed.stream("hi").result;
      return { run, events };
    };

    it("its step's usage is unknown and its cost absent; the run's total is what is known", async () => {
      const { run, events } = await play(fake({ inputTokens: undefined, outputTokens: undefined }));
      const responded = events.flatMap((e) => (e.type === "ModelResponded" ? [e] : []));
      expect(responded.map((e) => e.usageUnknown)).toEqual([true, undefined]);
      expect(run.cost!.perStep.map((s) => "cost" in s)).toEqual([false, true]);
      expect(run.cost).toMatchObject({ total: expect.closeTo(KNOWN_COST, 15), unknownCostSteps: 1 });
      expect(run.usage).toMatchObject({ inputTokens: 1_000, outputTokens: 100 });
      expect(events.filter((e) => e.type === "ModelWarning")).toEqual([
        expect.objectContaining({ iteration: 1, message: expect.stringMatching(/reported no token usage/) }),
      ]);
    });

    it("only its output tokens unreported: the input tokens count, the cost is unknown", async () => {
      const { run } = await play(fake({ inputTokens: 500, outputTokens: undefined }));
      expect(run.usage).toMatchObject({ inputTokens: 1_500, outputTokens: 100 });
      expect(run.cost!.unknownCostSteps).toBe(1);
    });
  },
);

describe("C21 generateResult of a turn without usage", () => {
  it("reports what a provider that sends no usage reports: every count undefined", () => {
    const { usage } = generateResult({
      text: "hi",
      usage: { inputTokens: undefined, outputTokens: undefined },
    });
    expect(usage).toEqual({
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: undefined, text: undefined, reasoning: undefined },
    });
  });

  it("a turn without a usage reports 0 tokens, as before", () => {
    expect(generateResult({ text: "hi" }).usage).toEqual({
      inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 0, text: 0, reasoning: 0 },
    });
  });
});

describe("C22 a call without usage, without pricing", () => {
  it("one ModelWarning for the run says its usage undercounts (two such calls of one model)", async () => {
    const events: ToolLoopEvent[] = [];
    const none = { inputTokens: undefined, outputTokens: undefined };
    const run = await new FakePromptRunner()
      .respondWith("a call without usage", () => ({ toolCalls: [{ toolName: "missing" }], usage: none }))
      .respondWith("an answer without usage", () => ({ text: "done", usage: none }))
      .withObserver((e) => events.push(e))
      .run("hi");
    expect(run.cost).toBeUndefined();
    expect(events.flatMap((e) => (e.type === "ModelWarning" ? [e.message] : []))).toEqual([
      'Model "scripted" reported no token usage (no input or output tokens) at step 1: usage counts that ' +
        "call's tokens as 0, so the run's usage is less than it spent (ModelResponded.usageUnknown marks each " +
        "such call). Said once per run for each model.",
    ]);
  });
});
