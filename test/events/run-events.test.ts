// A run's event channel counts every event, observed or not (issue 46: an event nobody observes is only
// counted, not stamped and copied), and an observer gets each event stamped with the run's id.
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
    const expected = { modelCalls: 1, toolCalls: 2, toolFailures: 1, toolsInjected: 2 };
    expect(quiet.counters).toMatchObject(expected);
    expect(watched.counters).toEqual(quiet.counters);
    expect(heard.map((e) => [e.type, e.runId])).toEqual(events.map((e) => [e.type, watched.runId]));
    expect(heard[0]).not.toBe(events[0]);
  });
});
