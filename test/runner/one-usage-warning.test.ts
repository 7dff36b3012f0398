// C25 (docs/reliability.md, "cost and usage"): a provider's input or output token count that is not a count
// (W04) makes the call's usage unknown (C22, with pricing C18): the caller gets one `ModelWarning` that says
// both, what the provider sent and what it does to usage and cost, not W04's and then C22's. The other
// cases keep their one warning each.
import { describe, expect, it } from "vitest";
import {
  PromptRunner,
  type ModelAdapter,
  type ModelStepResult,
  type ReportedTokenUsage,
  type ToolLoopEvent,
} from "entity-tools";

/** A backend of model "m" answering one step per usage given, a final text at the last. */
function adapterOf(...usages: ReportedTokenUsage[]): ModelAdapter {
  let index = 0;
  return {
    supportsDynamicTools: true,
    step: async (): Promise<ModelStepResult> => {
      const usage = usages[index++]!;
      const last = index === usages.length;
      const toolCalls = last ? [] : [{ toolCallId: `c${index}`, toolName: "missing", input: {} }];
      return {
        responseMessages: [
          {
            role: "assistant",
            content: last ? "done" : toolCalls.map((c) => ({ type: "tool-call" as const, ...c })),
          },
        ],
        toolCalls,
        text: last ? "done" : "",
        usage,
        modelId: "m",
      };
    },
  };
}

/** The messages of the run's `ModelWarning`s. */
async function warningsOf(adapter: ModelAdapter, priced = false): Promise<string[]> {
  const events: ToolLoopEvent[] = [];
  const runner = new PromptRunner({ adapter }).withObserver((e) => events.push(e));
  await (priced ? runner.withPricing({ input: 2, output: 10 }) : runner).run("hi");
  return events.flatMap((e) => (e.type === "ModelWarning" ? [e.message] : []));
}

const UNPRICED_END =
  "so the run's usage is less than it spent (ModelResponded.usageUnknown marks each such call). Said once per run for each model.";

describe("C25 one warning for one token count that is not a count", () => {
  it("an input count of -5: one warning naming it, and that usage counts it as 0 (was: W04's, then C22's)", async () => {
    expect(await warningsOf(adapterOf({ inputTokens: -5, outputTokens: 7 }))).toEqual([
      `Model "m" reported inputTokens as -5 at step 1, which is not a count of tokens: usage counts that call's inputTokens as 0, ${UNPRICED_END}`,
    ]);
  });

  it("with pricing, an input count of NaN: one warning naming it, and that the call's cost is unknown", async () => {
    expect(await warningsOf(adapterOf({ inputTokens: NaN, outputTokens: 7 }), true)).toEqual([
      'Model "m" reported inputTokens as NaN at step 1, which is not a count of tokens, so the cost of that call is ' +
        "unknown, not 0: cost.total leaves out each call without usage (cost.unknownCostSteps counts them), and " +
        "usage counts its inputTokens as 0. Said once per run for each model.",
    ]);
  });

  it("input and output counts both wrong, in two steps: one warning, naming both of the first step", async () => {
    const bad = { inputTokens: 1.5, outputTokens: -1 };
    expect(await warningsOf(adapterOf(bad, bad))).toEqual([
      `Model "m" reported inputTokens as 1.5 and outputTokens as -1 at step 1, which are not counts of tokens: usage counts that call's inputTokens and outputTokens as 0, ${UNPRICED_END}`,
    ]);
  });

  it("the other cases still warn once each: no usage (C22), a cached-token count that is not one (W04)", async () => {
    expect(await warningsOf(adapterOf({ inputTokens: undefined, outputTokens: undefined }))).toEqual([
      `Model "m" reported no token usage (no input or output tokens) at step 1: usage counts that call's tokens as 0, ${UNPRICED_END}`,
    ]);
    expect(
      await warningsOf(adapterOf({ inputTokens: 100, outputTokens: 7, cachedInputTokens: -3 }), true),
    ).toEqual([
      "The provider reported cachedInputTokens as -3, which is not a count of tokens: this response's usage, the run's totals and its cost count it as 0.",
    ]);
  });
});
