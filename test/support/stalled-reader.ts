// A reader of a streamed run that stalls before it reads (a page busy elsewhere), then reads one part per
// turn of the event loop: how far the model got ahead of it, and every part it read.
import type { RunStream, RunStreamPart, ToolLoopResult } from "entity-tools";

/** The parts of a conversation backend's run of `calls` calls of `count` (`{ n }`, 1 to `calls`), one a step. */
export function countingParts(calls: number): string[] {
  const each = Array.from({ length: calls }, (_, i) => [
    `tool-call ${i + 1}`,
    `tool-result ${i + 1}`,
    "step-finish",
  ]);
  return [...each.flat(), "text-delta", "step-finish", "finish"];
}

/** A part as `countingParts` names it. */
export function partName(part: RunStreamPart): string {
  if (part.type === "tool-call") return `tool-call ${(part.input as { n: number }).n}`;
  if (part.type === "tool-result") return `tool-result ${part.output}`;
  return part.type;
}

/**
 * Takes `stream`'s reader at once (the run now waits for it), reads nothing until `enough()` says the
 * model went far enough ahead or `stallMs` passed, then reads every part. `ahead()` is how far the model
 * is ahead of the calls read, recorded at the stall's end and at each part.
 */
export async function readAfterStall<T>(
  stream: RunStream<T>,
  options: {
    readonly ahead: (callsRead: number) => number;
    readonly enough: () => boolean;
    readonly stallMs: number;
  },
): Promise<{ parts: RunStreamPart[]; maxAhead: number; run: ToolLoopResult<T> }> {
  const reader = stream.parts[Symbol.asyncIterator]();
  const until = Date.now() + options.stallMs;
  while (!options.enough() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  const parts: RunStreamPart[] = [];
  let calls = 0;
  let maxAhead = options.ahead(0);
  for (let next = await reader.next(); !next.done; next = await reader.next()) {
    parts.push(next.value);
    if (next.value.type === "tool-call") calls++;
    maxAhead = Math.max(maxAhead, options.ahead(calls));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { parts, maxAhead, run: await stream.result };
}
