// RunRecorder fed a conversation backend's events: the turn a stop ended reports a second response on its
// last step (with the turn's tokens), whose text joins the step's and never wipes it.
import { describe, expect, it } from "vitest";
import type { ToolLoopEvent } from "entity-tools";
import { RunRecorder } from "entity-tools/testing";

const usage = (inputTokens: number) => ({
  inputTokens,
  outputTokens: 0,
  cachedInputTokens: 0,
  reasoningTokens: 0,
});

function stepWith(...texts: string[]) {
  const recorder = new RunRecorder();
  const events: ToolLoopEvent[] = [
    { runId: "r1", type: "ToolLoopIteration", iteration: 1, toolNames: ["searchCustomer"] },
    ...texts.map((text, i): ToolLoopEvent => ({
      runId: "r1",
      type: "ModelResponded",
      iteration: 1,
      text,
      toolCalls: i === 0 ? [{ toolName: "searchCustomer", input: {} }] : [],
      usage: usage(i * 1000),
      durationMs: 0,
    })),
  ];
  for (const event of events) recorder.observe(event);
  return recorder.steps.map((s) => s.text);
}

describe("RunRecorder: a step with a second response", () => {
  it("keeps the step's text when the second response has none", () => {
    expect(stepWith("Looking John up.", "")).toEqual(["Looking John up."]);
  });

  it("joins both texts, and takes the second when the first had none", () => {
    expect(stepWith("Looking John up.", "Found him.")).toEqual(["Looking John up.\n\nFound him."]);
    expect(stepWith("", "Found him.")).toEqual(["Found him."]);
  });
});
