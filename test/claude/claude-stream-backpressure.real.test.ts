// A slow reader of a streamed run on the real Claude Code (its binary, the model a local Messages mock,
// X22): the run answers Claude Code's next tool call only once the reader is fewer than 64 parts behind,
// so Claude Code, waiting for that answer, asks its model nothing more meanwhile.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, PromptRunner } from "entity-tools";
import { ClaudeAgentSdkAdapter } from "entity-tools/claude";
import { startAnthropicMessagesMock, type AnthropicMessagesMock } from "entity-tools/testing";
import { claudeCodeUnavailable } from "../support/claude-code.js";
import { countingParts, partName, readAfterStall } from "../support/stalled-reader.js";

const unavailable = claudeCodeUnavailable();
if (unavailable) console.warn(`Skipping the Claude Code tests: ${unavailable}.`);

const CALLS = 40;
const HIGH_WATER = 64; // parts a reader may be behind (docs/conversations.md)
const PARTS_PER_CALL = 3; // tool-call, tool-result, step-finish

let mock: AnthropicMessagesMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const count = defineTool<{ n: number }>({
  name: "count",
  description: "Counts one",
  inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  execute: ({ n }) => String(n),
});

describe.skipIf(unavailable !== undefined)("a slow reader of a streamed run on the real Claude Code", () => {
  it("X22 the run waits for the reader: Claude Code is at most 64 parts' worth of calls ahead, and every part arrives in order", async () => {
    let asked = 0; // the calls the model made so far
    mock = await startAnthropicMessagesMock((request) => {
      if (!request.offeredTools.includes("mcp__tools__count")) return { text: "ok" }; // not the run's thread
      const done = request.toolResults.length;
      if (done >= CALLS) return { text: `Counted to ${CALLS}.` };
      asked = Math.max(asked, done + 1);
      return { toolCalls: [{ name: "mcp__tools__count", input: { n: done + 1 } }] };
    });
    const cwd = mkdtempSync(path.join(tmpdir(), "claude-code-"));
    const adapter = new ClaudeAgentSdkAdapter({
      env: {
        ANTHROPIC_BASE_URL: mock.baseURL,
        ANTHROPIC_API_KEY: "dummy",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        CLAUDE_CODE_MAX_RETRIES: "0",
        CLAUDE_CONFIG_DIR: path.join(cwd, ".claude"),
      },
      model: "claude-sonnet-4-5",
      cwd,
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
    // The calls that fill the 64 parts, the one the run holds back, and Claude Code's model request for it.
    expect(maxAhead).toBeLessThanOrEqual(Math.ceil(HIGH_WATER / PARTS_PER_CALL) + 2);
  }, 120_000);
});
