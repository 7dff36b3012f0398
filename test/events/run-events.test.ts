// A run's event channel counts every event, observed or not (issue 46: an event nobody observes is only
// counted, not stamped), and an observer gets each event stamped with the run's id (in place, or on a copy
// of a frozen event).
import { describe, expect, it } from "vitest";
import type { ToolLoopEvent } from "entity-tools";
import { RunEvents } from "../../src/events/run-events.js";
import type { RunEventInit } from "../../src/events/tool-loop-event.js";

const events: RunEventInit[] = [
  { type: "ToolLoopIteration", iteration: 1, toolNames: ["a"] },
  {
    type: "ToolInvoked",
    iteration: 1,
    toolCallId: "c1",
    toolName: "a",
    input: {},
    resultText: "ok",
    durationMs: 1,
  },
  {
    type: "ToolFailed",
    iteration: 1,
    toolCallId: "c2",
    toolName: "a",
    input: {},
    reason: "threw",
    message: "x",
  },
  { type: "ToolsInjected", iteration: 1, toolNames: ["b", "c"], reason: "discovery" },
  { type: "RunRestarted", cause: "strategy", reason: "a strategy asked" },
  // A new thread: its one RunRestarted, then the event that details it (not a restart of its own).
  { type: "RunRestarted", cause: "new-thread", reason: "b is new", toolNames: ["b"] },
  { type: "ConversationRestarted", toolNames: ["a", "b"] },
] as RunEventInit[];

describe("RunEvents", () => {
  it("counts the same with and without observers; observers get the events stamped with the run id", () => {
    const heard: ToolLoopEvent[] = [];
    const quiet = new RunEvents([]);
    const watched = new RunEvents([(e) => void heard.push(e)]);
    for (const event of events) {
      quiet.emit(event);
      watched.emit(event);
    }
    // The tools a run added are counted by the run as it lists them (`Run.recordAdded`), not by event.
    const expected = { modelCalls: 1, toolCalls: 2, toolFailures: 1, toolsInjected: 0, restarts: 2 };
    expect(quiet.counters).toMatchObject(expected);
    expect(watched.counters).toEqual(quiet.counters);
    expect(heard.map((e) => [e.type, e.runId])).toEqual(events.map((e) => [e.type, watched.runId]));
  });

  it("stamps a frozen event on a copy, which the observers get", () => {
    const heard: ToolLoopEvent[] = [];
    const frozen = Object.freeze({ type: "ToolLoopIteration", iteration: 1, toolNames: ["a"] } as const);
    const watched = new RunEvents([(e) => void heard.push(e)]);
    watched.emit(frozen);
    expect(heard).toEqual([{ ...frozen, runId: watched.runId }]);
    expect(frozen).not.toHaveProperty("runId");
  });
});
