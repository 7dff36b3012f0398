import { types } from "node:util";
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { MaxIterationsExceededError, ToolLoopAbortedError, ToolLoopError, defineTool } from "entity-tools";
import { RunEvents } from "../../../src/events/run-events.js";
import { DEFAULT_RUN_SETTINGS } from "../../../src/loop/settings/run-settings.js";
import { Run } from "../../../src/loop/run/run.js";

const lookup = defineTool<{ id: string }>({
  name: "lookup",
  description: "Looks an order up",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  execute: ({ id }) => ({ id }),
});

const call = { toolCallId: "c1", toolName: "lookup", input: { id: "o1" } };
const init = () => ({ settings: DEFAULT_RUN_SETTINGS, events: new RunEvents([]) });

/** A run that asked for a call, waits for a decision on it, and used some tokens over two iterations. */
function pausedRun(): Run {
  const run = Run.start(init(), [{ role: "user", content: "find o1" }], { orders: "FULL" });
  run.startAttempt([lookup]);
  run.countIteration();
  run.totals.addUsage({ inputTokens: 5, outputTokens: 1 });
  run.countIteration();
  run.totals.addUsage({ inputTokens: 10, outputTokens: 2 });
  const asked: ModelMessage = { role: "assistant", content: [{ type: "tool-call", ...call }] };
  run.append(asked, { role: "tool", content: [] });
  run.hold({ iteration: 2, calls: [call] });
  return run;
}

describe("Run", () => {
  it("reads its own snapshot back as the same run: history, waiting calls, totals, counters, visibility", () => {
    const run = pausedRun();
    run.events.counters.toolCalls = 3;
    const snapshot = run.toSnapshot();
    expect(snapshot).toMatchObject({
      iterations: 2,
      usage: { inputTokens: 15, outputTokens: 3 },
      paused: { iteration: 2, calls: [call] },
      visibility: { orders: "FULL" },
      counters: { toolCalls: 3 },
    });

    const resumed = Run.fromSnapshot(init(), { snapshot: structuredClone(snapshot), approvals: {} });
    resumed.startAttempt([lookup]);
    expect(resumed.history).toEqual(run.history);
    expect(resumed.pending).toEqual([{ iteration: 2, calls: [call] }]);
    expect(resumed.events.counters.toolCalls).toBe(3);
    expect(resumed.visibility.snapshot()).toEqual({ orders: "FULL" });
    // The same run, written by another part of it: the snapshot names the part that wrote it.
    expect(snapshot.log).toBe(run.events.runId);
    expect(resumed.toSnapshot()).toEqual({ ...snapshot, log: resumed.events.runId });
  });

  it("counts the whole run's totals and this call's tokens apart; a restart keeps the totals and the step numbers", () => {
    const resumed = Run.fromSnapshot(init(), { snapshot: pausedRun().toSnapshot(), approvals: {} });
    resumed.startAttempt([lookup]);
    resumed.countIteration();
    resumed.totals.addUsage({ inputTokens: 1 });
    expect([resumed.iteration, resumed.totals.iterations]).toEqual([3, 3]); // the run's 3rd step
    expect(resumed.totals.usage).toMatchObject({ inputTokens: 16, outputTokens: 3 });
    expect(resumed.totals.callUsage).toMatchObject({ inputTokens: 1, outputTokens: 0 });

    resumed.startAttempt([lookup]); // a restart: the prompt again, nothing waiting, the totals kept
    expect(resumed.pending).toEqual([]);
    expect([resumed.iteration, resumed.totals.iterations]).toEqual([3, 3]); // the next step is the 4th
  });

  it("a continued conversation restarts from its snapshot's history and the new messages", () => {
    const followUp: ModelMessage[] = [{ role: "user", content: "and o2?" }];
    const snapshot = pausedRun().toSnapshot();
    const continued = Run.fromSnapshot(init(), { snapshot, approvals: {}, followUp });
    continued.startAttempt([lookup]);
    expect(continued.history).toEqual(snapshot.history); // the new messages follow the answered calls
    continued.startAttempt([lookup]);
    expect(continued.history).toEqual([...snapshot.history, ...followUp]);
  });

  it("ends with the very error thrown, the run attached once", () => {
    const run = pausedRun();
    const thrown = new MaxIterationsExceededError(2);
    const error = run.fail(thrown);

    expect(error).toBe(thrown);
    expect(types.isNativeError(error)).toBe(true);
    expect(error).toMatchObject({ name: "MaxIterationsExceededError", maxIterations: 2 });
    expect(error.conversationHistory).toEqual(run.history);
    expect(error.totalIterations).toBe(2);
    expect(error.snapshot).toEqual(run.toSnapshot());
    // Asked again (a driver and the runner both end the run), it is the same error, not amended.
    expect(run.fail(error)).toBe(error);
    expect(error.conversationHistory).toHaveLength(3);
  });

  it("wraps a failure that is not ours, as a cancellation when the run's signal fired", () => {
    const boom = new Error("boom");
    const failed = pausedRun().fail(boom);
    expect(failed.constructor).toBe(ToolLoopError);
    expect(failed.message).toBe("The run failed: boom");
    expect(failed.cause).toBe(boom);
    expect(failed.snapshot?.iterations).toBe(2);

    const controller = new AbortController();
    controller.abort(new Error("user left"));
    const aborted = pausedRun().fail(boom, controller.signal);
    expect(aborted).toBeInstanceOf(ToolLoopAbortedError);
    expect(aborted.message).toBe("The run was aborted: user left");
    expect(aborted.snapshot?.history).toHaveLength(3);
  });

  it("before a step, gives a run error the conversation as it stood and leaves the caller's errors alone", () => {
    const run = Run.start(init(), [{ role: "user", content: "hi" }]);
    const down = new ToolLoopError("source down");
    expect(run.failBeforeStep(down)).toBe(down);
    expect(down.conversationHistory).toEqual([{ role: "user", content: "hi" }]);
    expect(down.snapshot).toBeUndefined(); // a new run has nothing to resume yet
    const mistake = new TypeError("not a tool");
    expect(run.failBeforeStep(mistake)).toBe(mistake);
  });
});
