import type { ModelMessage } from "ai";
import type { PausedCalls } from "./run-snapshot.js";

/** The calls of one model message that wait for a decision (`PausedCalls` without `more`). */
export type WaitingCalls = Omit<PausedCalls, "more">;

/** The waiting calls of a snapshot's `paused`, one entry per model message, in the order they were held. */
export function pausedGroups(paused: PausedCalls | undefined): WaitingCalls[] {
  if (!paused) return [];
  return [{ iteration: paused.iteration, calls: paused.calls }, ...(paused.more ?? [])];
}

/** How a snapshot records waiting calls: the first message's as `paused`, any others' as its `more`. */
export function pausedOf(groups: readonly WaitingCalls[]): PausedCalls | undefined {
  const [first, ...more] = groups;
  if (!first) return undefined;
  return more.length > 0 ? { ...first, more } : first;
}

/**
 * Where the results of `group`'s calls go: the last of the tool messages that follow the model message with
 * its first call (the message the calls before it were answered in). Undefined when there is none.
 */
export function answerIndexOf(history: readonly ModelMessage[], group: WaitingCalls): number | undefined {
  const id = group.calls[0]?.toolCallId;
  // The latest message with that call: the waiting calls are the run's latest.
  let asked = history.length - 1;
  for (; asked >= 0; asked--) {
    const m = history[asked]!;
    if (m.role === "assistant" && Array.isArray(m.content))
      if (m.content.some((p) => p.type === "tool-call" && p.toolCallId === id)) break;
  }
  let answer: number | undefined;
  for (let i = asked + 1; asked >= 0 && history[i]?.role === "tool"; i++) answer = i;
  return answer;
}
