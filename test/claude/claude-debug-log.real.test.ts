// The SDK's debug setting (DEBUG_CLAUDE_AGENT_SDK) on the real Claude Code, its model a local Messages
// mock: the SDK starts Claude Code as it does by default, so Claude Code writes its debug log into the
// SDK's own (`--debug-file`), one file for both. A file of its own: the SDK decides once per process
// whether it logs, at its first query, so no other test may run a query before this one.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PromptRunner } from "entity-tools";
import { ClaudeAgentSdkAdapter } from "entity-tools/claude";
import { startAnthropicMessagesMock } from "entity-tools/testing";
import { claudeCodeUnavailable } from "../support/claude-code.js";
import { processesIn } from "../support/processes-in.js";
import { tempDir } from "../support/temp-dir.js";

const unavailable = claudeCodeUnavailable();
const saved = { debug: process.env.DEBUG_CLAUDE_AGENT_SDK, config: process.env.CLAUDE_CONFIG_DIR };
afterAll(() => {
  for (const [name, value] of [
    ["DEBUG_CLAUDE_AGENT_SDK", saved.debug],
    ["CLAUDE_CONFIG_DIR", saved.config],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

describe.skipIf(unavailable !== undefined)("Claude Code with the SDK's debug setting on", () => {
  it("B04 Claude Code writes its debug log into the SDK's debug file, as when the SDK starts it, not into a file of its own", async () => {
    const cwd = tempDir("claude-code-");
    const config = path.join(cwd, ".claude");
    // The SDK reads both from this process: whether to log, and where (<config>/debug/sdk-<uuid>.txt).
    process.env.DEBUG_CLAUDE_AGENT_SDK = "1";
    process.env.CLAUDE_CONFIG_DIR = config;
    const mock = await startAnthropicMessagesMock(() => ({ text: "Hello." }));
    try {
      const adapter = new ClaudeAgentSdkAdapter({
        env: {
          ANTHROPIC_BASE_URL: mock.baseURL,
          ANTHROPIC_API_KEY: "dummy",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          CLAUDE_CODE_MAX_RETRIES: "0",
          TMPDIR: cwd,
        },
        model: "claude-sonnet-4-5",
        cwd,
      });
      expect((await new PromptRunner({ adapter }).run("Say hello")).result).toBe("Hello.");
    } finally {
      await mock.close();
    }
    expect(processesIn(cwd)).toEqual([]); // B01 still: gone when the run resolved
    const logs = readdirSync(path.join(config, "debug")).filter((name) => name !== "latest");
    expect(logs).toEqual([expect.stringMatching(/^sdk-[0-9a-f-]+\.txt$/)]);
    expect(readFileSync(path.join(config, "debug", logs[0]!), "utf8")).toContain("[DEBUG]"); // Claude Code's lines
  }, 60_000);
});
