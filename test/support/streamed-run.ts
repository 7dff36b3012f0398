// A streamed run read to its end, as a page would: every part in order, then the result.
import type { RunStream, RunStreamPart, ToolLoopResult } from "entity-tools";

/** The part types of a conversation backend's run of one tool call then an answer (each is a step). */
export const ONE_CALL_THEN_ANSWER = [
  "tool-call",
  "tool-result",
  "step-finish",
  "text-delta",
  "step-finish",
  "finish",
] as const;

/** Reads every part of `stream`, then awaits its result. */
export async function readStream<T>(
  stream: RunStream<T>,
): Promise<{ parts: RunStreamPart[]; run: ToolLoopResult<T> }> {
  const parts: RunStreamPart[] = [];
  for await (const part of stream.parts) parts.push(part);
  return { parts, run: await stream.result };
}
