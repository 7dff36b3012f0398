// A run of many tool calls, one after another, read by a reader of its stream that stalls before it reads
// (a page busy elsewhere), then reads one part per turn of the event loop: how far the model got ahead of
// it, and every part it read. For the conversation backends (the model is their binary's).
import { expect } from "vitest";
import { defineTool, type PromptRunner, type RunStream, type RunStreamPart } from "entity-tools";
import type { MockReply } from "entity-tools/testing";

/**
 * `turnTimeoutMs` for {@link failureOfAReaderThatStops}: the turn must outlast the model's one answer (all
 * its calls at once, {@link burstingModel}) and the calls the run answers before the reader's 64 parts are
 * full, or it ends while the run is still answering and says something else (that took 1–1.4 s on Claude
 * Code, most of it its start, and 0.15–0.6 s on Codex, idle and at load 5). The limit is a margin, not
 * what the test measures.
 */
export const STALLED_TURN_TIMEOUT_MS = 6_000;

/** How many calls of `count` the model makes (`{ n }`, 1 to `CALLS`) before its answer. */
const CALLS = 40;
/** Parts a reader may be behind (docs/conversations.md). */
const HIGH_WATER = 64;
/** A call's parts on a conversation backend: tool-call, tool-result, step-finish. */
const PARTS_PER_CALL = 3;
/** The calls that fill the reader's 64 parts, the one the run holds back, and the model's request for it. */
const MAX_CALLS_AHEAD = Math.ceil(HIGH_WATER / PARTS_PER_CALL) + 2;

const count = defineTool<{ n: number }>({
  name: "count",
  description: "Counts one",
  inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  execute: ({ n }) => String(n),
});

/** The model's script: `CALLS` calls of `count` (named `toolName` on the wire), then its answer; `asked` so far. */
export function countingModel(toolName: string) {
  let asked = 0;
  return {
    asked: () => asked,
    reply: (request: { readonly toolResults: readonly unknown[] }): MockReply => {
      const done = request.toolResults.length;
      if (done >= CALLS) return { text: `Counted to ${CALLS}.` };
      asked = Math.max(asked, done + 1);
      return { toolCalls: [{ name: toolName, input: { n: done + 1 } }] };
    },
  };
}

/**
 * The model's script for a reader that stops: every call of `count` (1 to `CALLS`) in its first answer,
 * so the run's answers reach the reader's bound after one round trip through the backend (one call an
 * answer took about 22, which a loaded machine stretched past the turn's limit), then its answer.
 */
export function burstingModel(toolName: string) {
  return (request: { readonly toolResults: readonly unknown[] }): MockReply =>
    request.toolResults.length > 0
      ? { text: `Counted to ${CALLS}.` }
      : { toolCalls: Array.from({ length: CALLS }, (_, i) => ({ name: toolName, input: { n: i + 1 } })) };
}

/** The parts of the counting run, named as `partName` names them. */
function countingParts(): string[] {
  const each = Array.from({ length: CALLS }, (_, i) => [
    `tool-call ${i + 1}`,
    `tool-result ${i + 1}`,
    "step-finish",
  ]);
  return [...each.flat(), "text-delta", "step-finish", "finish"];
}

function partName(part: RunStreamPart): string {
  if (part.type === "tool-call") return `tool-call ${(part.input as { n: number }).n}`;
  if (part.type === "tool-result") return `tool-result ${part.output}`;
  return part.type;
}

/**
 * Takes `stream`'s reader at once (the run now waits for it), reads nothing until the model went past the
 * bound (the run did not wait) or 5 s passed, then reads every part. `maxAhead`: the most calls the model
 * made beyond those read, at the stall's end and at each part.
 */
async function readAfterStall(stream: RunStream<string>, asked: () => number) {
  const reader = stream.parts[Symbol.asyncIterator]();
  const until = Date.now() + 5_000;
  while (asked() <= MAX_CALLS_AHEAD + 3 && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const parts: string[] = [];
  let calls = 0;
  let maxAhead = asked();
  for (let next = await reader.next(); !next.done; next = await reader.next()) {
    parts.push(partName(next.value));
    if (next.value.type === "tool-call") calls++;
    maxAhead = Math.max(maxAhead, asked() - calls);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { result: (await stream.result).result, parts, maxAhead };
}

/**
 * Runs the counting run on `runner` (its model `countingModel`'s, `asked` its count) for a reader that
 * stalls first: the answer and every part arrive in order, and the model never got more than
 * `MAX_CALLS_AHEAD` calls ahead of the reader.
 */
export async function expectTheRunWaitsForItsReader(runner: PromptRunner, asked: () => number) {
  const stream = runner
    .withTools(count)
    .withMaxToolIterations(CALLS + 1)
    .stream(`Count to ${CALLS}, one call each`);
  const read = await readAfterStall(stream, asked);
  expect(read).toEqual({ result: `Counted to ${CALLS}.`, parts: countingParts(), maxAhead: read.maxAhead });
  expect(read.maxAhead).toBeLessThanOrEqual(MAX_CALLS_AHEAD);
}

/**
 * Runs the counting run on `runner` for a reader that takes `stream`'s parts and then reads none (a page
 * that hung): the run's answers wait for it until the turn's time limit, and the run fails. What it failed
 * with, with the number of milliseconds in its messages written as `N`, for a test to compare whole.
 */
export async function failureOfAReaderThatStops(runner: PromptRunner): Promise<string[]> {
  const stream = runner
    .withTools(count)
    .withMaxToolIterations(CALLS + 1)
    .stream(`Count to ${CALLS}, one call each`);
  stream.parts[Symbol.asyncIterator](); // taken, never read
  const error = await stream.result.then(
    () => expect.unreachable("the run completed for a reader that read nothing"),
    (e: unknown) => e as Error,
  );
  const messages = [error.message, (error.cause as Error | undefined)?.message ?? ""];
  return messages.map((message) => message.replace(/\d+ ms/g, "N ms"));
}
