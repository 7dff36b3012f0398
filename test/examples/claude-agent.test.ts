// examples/claude-agent as its README line runs it: one command, offline (no ANTHROPIC_API_KEY), the real
// Claude Code binary against the example's scripted Messages API.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { claudeCodeUnavailable } from "../support/claude-code.js";
import { tempDir } from "../support/temp-dir.js";

const unavailable = claudeCodeUnavailable();
if (unavailable) console.warn(`Skipping the Claude Code example: ${unavailable}.`);

describe.skipIf(unavailable !== undefined)("examples/claude-agent", () => {
  it("runs offline with one command: the discovered customer's tool is offered in the same Claude Code process, and the answer is the validated object", async () => {
    const { stdout } = await promisify(execFile)(
      path.resolve("node_modules/.bin/tsx"),
      ["examples/claude-agent/agent.ts"],
      {
        // Its temporary folder, where it keeps Claude Code's config (gone with the example's process).
        env: { ...process.env, ANTHROPIC_API_KEY: "", TMPDIR: tempDir("claude-agent-") },
        timeout: 60_000,
      },
    );
    expect(stdout).toContain("model: local scripted Messages API at http://127.0.0.1:");
    expect(stdout).toContain(
      "+ injected, offered in Claude Code's next request: customer_c123_getAverageSpend, customer_c123_recentOrders",
    );
    expect(stdout).toContain('tool  customer_c123_getAverageSpend → {"amount":46.83,"currency":"USD"}');
    expect(stdout).toContain(
      'answer: {"customerName":"John Smith","averageMonthlySpend":46.83,"currency":"USD"}',
    );
    // Search, the discovered tool, the answer: one process, no restart.
    expect(stdout).toContain("Claude Code made 3 model requests");
  });
});
