// What the backend reads from the SDK's messages, and the options it refuses, without starting Claude Code.
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { InvalidSettingError, PromptRunner } from "entity-tools";
import { ClaudeAgentSdkAdapter, ClaudeAgentSdkError, type ClaudeAgentSdkOptions } from "entity-tools/claude";
import { readTurnEnd } from "../../src/claude/claude-sdk.js";

const usage = {
  input_tokens: 10,
  output_tokens: 2,
  cache_read_input_tokens: 5,
  cache_creation_input_tokens: 1,
};

describe("the Claude Agent SDK's result message, as the backend reads it", () => {
  it("a success gives the final text, or the structured output as JSON, and usage with cached input counted", () => {
    expect(readTurnEnd({ type: "result", subtype: "success", is_error: false, result: "Hi", usage })).toEqual(
      {
        ok: true,
        text: "Hi",
        usage: {
          inputTokens: 16,
          outputTokens: 2,
          cachedInputTokens: 5,
          reasoningTokens: 0,
          cacheWriteInputTokens: 1, // priced at cacheWriteInput
        },
      },
    );
    const structured = { type: "result", subtype: "success", result: "", structured_output: { a: 1 }, usage };
    expect(readTurnEnd(structured)).toMatchObject({ ok: true, text: '{"a":1}' });
  });

  it("an error result says which and why; other messages are not the end of a turn", () => {
    const failed = {
      type: "result",
      subtype: "error_max_turns",
      is_error: true,
      errors: ["too many"],
      usage,
    };
    expect(readTurnEnd(failed)).toMatchObject({ ok: false, reason: "error_max_turns: too many" });
    expect(readTurnEnd({ type: "assistant", message: {} })).toBeUndefined();
  });

  it("a result message that changed shape is a clear error naming the tested SDK version", () => {
    expect(() => readTurnEnd({ type: "result", subtype: "success", result: "x" })).toThrow(
      ClaudeAgentSdkError,
    );
    expect(() => readTurnEnd({ type: "result", subtype: "success", result: "x" })).toThrow(
      /a result without token usage; the @anthropic-ai\/claude-agent-sdk version this entity-tools release is tested with is 0\.3\.331/,
    );
  });
});

describe("ClaudeAgentSdkAdapter options", () => {
  it("is dynamic by default, and not in restart or dispatch mode", () => {
    expect(new ClaudeAgentSdkAdapter()).toMatchObject({ newTools: "dynamic", supportsDynamicTools: true });
    expect(new ClaudeAgentSdkAdapter({ newTools: "restart" }).supportsDynamicTools).toBe(false);
  });

  it("refuses a server name Claude Code would change or that leaves no room for tool names, and non-positive time limits", () => {
    expect(() => new ClaudeAgentSdkAdapter({ serverName: "my tools" })).toThrow(InvalidSettingError);
    expect(() => new ClaudeAgentSdkAdapter({ serverName: "x".repeat(21) })).toThrow(InvalidSettingError);
    expect(() => new ClaudeAgentSdkAdapter({ turnTimeoutMs: 0 })).toThrow(/turnTimeoutMs must be a positive/);
    expect(() => new ClaudeAgentSdkAdapter({ relistTimeoutMs: Number.NaN })).toThrow(InvalidSettingError);
  });
});

describe("ClaudeAgentSdkAdapter env", () => {
  afterEach(() => {
    delete process.env.ENTITY_TOOLS_TEST_INHERITED;
  });

  it("takes process.env's values as they are typed (string | undefined), as the SDK's own env does", () => {
    // Type checked by `npm run typecheck` (tsc over test/, strict): it did not compile.
    const options: ClaudeAgentSdkOptions = { env: { ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY } };
    expectTypeOf(options.env).toEqualTypeOf<Readonly<Record<string, string | undefined>> | undefined>();
  });

  it("a variable given as undefined keeps this process's value; the others are set on top of it", async () => {
    process.env.ENTITY_TOOLS_TEST_INHERITED = "inherited";
    let spawned: Record<string, string | undefined> | undefined;
    const adapter = new ClaudeAgentSdkAdapter({
      env: {
        ENTITY_TOOLS_TEST_INHERITED: undefined,
        ENTITY_TOOLS_TEST_SET: "set",
        ENTITY_TOOLS_TEST_UNSET: undefined,
      },
      // What Claude Code would be started with, without starting it.
      sdkOptions: {
        spawnClaudeCodeProcess: (options) => {
          spawned = options.env;
          throw new Error("not started in this test");
        },
      },
    });
    await expect(new PromptRunner({ adapter }).run("hi")).rejects.toThrow();
    expect(spawned).toMatchObject({ ENTITY_TOOLS_TEST_INHERITED: "inherited", ENTITY_TOOLS_TEST_SET: "set" });
    expect(spawned).not.toHaveProperty("ENTITY_TOOLS_TEST_UNSET");
    expect(Object.values(spawned!)).not.toContain("undefined");
  });
});
