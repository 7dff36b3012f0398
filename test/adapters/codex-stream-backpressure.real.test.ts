// A slow reader of a streamed run on the real `codex app-server` (its model a local Responses mock, X23):
// the run answers Codex's next dynamic tool call only once the reader is fewer than 64 parts behind, so
// Codex, waiting for that answer, asks its model nothing more meanwhile.
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, PromptRunner } from "entity-tools";
import { CodexAppServerAdapter } from "entity-tools/codex";
import { startOpenAiResponsesMock, type OpenAiResponsesMock } from "entity-tools/testing";
import { codexHomeFor } from "../support/codex-home.js";
import { countingParts, partName, readAfterStall } from "../support/stalled-reader.js";

const CALLS = 40;
const HIGH_WATER = 64; // parts a reader may be behind (docs/conversations.md)
const PARTS_PER_CALL = 3; // tool-call, tool-result, step-finish

let mock: OpenAiResponsesMock | undefined;
afterEach(async () => mock?.close());

const count = defineTool<{ n: number }>({
  name: "count",
  description: "Counts one",
  inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  execute: ({ n }) => String(n),
});

describe("a slow reader of a streamed run on the real codex app-server", () => {
  it("X23 the run waits for the reader: Codex is at most 64 parts' worth of calls ahead, and every part arrives in order", async () => {
    let asked = 0; // the calls the model made so far
    mock = await startOpenAiResponsesMock((request) => {
      const done = request.toolResults.length;
      if (done >= CALLS) return { text: `Counted to ${CALLS}.` };
      asked = Math.max(asked, done + 1);
      return { toolCalls: [{ name: "count", input: { n: done + 1 } }] };
    });
    const adapter = new CodexAppServerAdapter({
      codexHome: codexHomeFor(mock.baseURL),
      requestTimeoutMs: 20_000,
      turnTimeoutMs: 60_000,
    });
    const stream = new PromptRunner({ adapter })
      .withTools(count)
      .withMaxToolIterations(CALLS + 1)
      .stream(`Count to ${CALLS}, one call each`);
    const { parts, maxAhead, run } = await readAfterStall(stream, {
      ahead: (read) => asked - read,
      enough: () => asked > HIGH_WATER / PARTS_PER_CALL + 5, // past the bound: the run did not wait
      stallMs: 5_000,
    });
    expect(run.result).toBe(`Counted to ${CALLS}.`);
    expect(parts.map(partName)).toEqual(countingParts(CALLS));
    // The calls that fill the 64 parts, the one the run holds back, and Codex's model request for it.
    expect(maxAhead).toBeLessThanOrEqual(Math.ceil(HIGH_WATER / PARTS_PER_CALL) + 2);
  }, 120_000);
});
