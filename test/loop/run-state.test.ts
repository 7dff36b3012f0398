import { types } from "node:util";
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { MaxIterationsExceededError, ToolLoopAbortedError, ToolLoopError, defineTool } from "entity-tools";
import { RunEvents } from "../../src/events/run-events.js";
import { emptyUsage } from "../../src/events/token-usage.js";
import { DEFAULT_RUN_SETTINGS } from "../../src/loop/run-settings.js";
import { RunState } from "../../src/loop/run-state.js";

const lookup = defineTool<{ id: string }>({
  name: "lookup",
  description: "Looks an order up",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  execute: ({ id }) => ({ id }),
});

const call = { toolCallId: "c1", toolName: "lookup", input: { id: "o1" } };

/** A run that asked for a call, waits for a decision on it, and used some tokens over two iterations. */
function pausedState(): RunState {
  const events = new RunEvents([]);
  const state = new RunState({
    messages: [{ role: "user", content: "find o1" }],
    tools: [lookup],
    settings: DEFAULT_RUN_SETTINGS,
    events,
    snapshot: {
      earlier: { iterations: 1, usage: { ...emptyUsage(), inputTokens: 5, outputTokens: 1 } },
      visibility: () => ({ orders: "FULL" }),
    },
  });
  state.countIteration();
  state.countIteration();
  state.addUsage({ inputTokens: 10, outputTokens: 2 });
  const asked: ModelMessage = { role: "assistant", content: [{ type: "tool-call", ...call }] };
  state.history.push(asked, { role: "tool", content: [] });
  state.hold({ iteration: 2, calls: [call] });
  return state;
}

describe("RunState", () => {
  it("reads its own snapshot back as the same run: history, waiting calls, iterations, usage", () => {
    const state = pausedState();
    const snapshot = state.toSnapshot();
    expect(snapshot).toMatchObject({
      iterations: 3,
      usage: { inputTokens: 15, outputTokens: 3 },
      paused: { iteration: 2, calls: [call] },
      visibility: { orders: "FULL" },
    });

    const resumed = RunState.fromSnapshot(structuredClone(snapshot), {
      tools: [lookup],
      settings: DEFAULT_RUN_SETTINGS,
      events: new RunEvents([]),
      snapshot: { visibility: () => ({ orders: "FULL" }) },
    });
    expect(resumed.history).toEqual(state.history);
    expect(resumed.pending).toEqual({ iteration: 2, calls: [call] });
    expect(resumed.toSnapshot()).toEqual(snapshot);
  });

  it("builds the error the run ends with once, of the thrown class, with the run written down", () => {
    const state = pausedState();
    const thrown = new MaxIterationsExceededError(2);
    const error = state.error(thrown);

    expect(error).toBeInstanceOf(MaxIterationsExceededError);
    expect(MaxIterationsExceededError.isInstance(error)).toBe(true);
    expect(types.isNativeError(error)).toBe(true);
    expect(error).toMatchObject({
      name: "MaxIterationsExceededError",
      maxIterations: 2,
      message: thrown.message,
    });
    expect(error.stack).toBe(thrown.stack); // where the failure was noticed
    expect(error.conversationHistory).toEqual(state.history);
    expect(error.totalIterations).toBe(3);
    expect(error.snapshot).toEqual(state.toSnapshot());
    // Asked again (a driver and the runner both end the run), it is the same error, not amended.
    expect(state.error(error)).toBe(error);
  });

  it("wraps a failure that is not ours, as a cancellation when the run's signal fired", () => {
    const boom = new Error("boom");
    const failed = pausedState().error(boom);
    expect(failed.constructor).toBe(ToolLoopError);
    expect(failed.message).toBe("The run failed: boom");
    expect(failed.cause).toBe(boom);
    expect(failed.snapshot?.iterations).toBe(3);

    const controller = new AbortController();
    controller.abort(new Error("user left"));
    const aborted = pausedState().error(boom, controller.signal);
    expect(aborted).toBeInstanceOf(ToolLoopAbortedError);
    expect(aborted.message).toBe("The run was aborted: user left");
    expect(aborted.snapshot?.history).toHaveLength(3);
  });
});
