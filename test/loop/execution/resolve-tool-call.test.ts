import { describe, expect, it } from "vitest";
import { defineTool } from "entity-tools";
import { resolveToolCall } from "../../../src/loop/execution/resolve-tool-call.js";
import { UnknownToolPolicy } from "../../../src/loop/execution/unknown-tool-policy.js";
import { ToolRegistry } from "../../../src/tools/tool-registry.js";

const echo = defineTool<{ text: string }>({
  name: "echo",
  description: "Echo",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
    additionalProperties: false,
  },
  execute: ({ text }) => text,
});
const resolve = (toolName: string, input: unknown, inputError?: string) =>
  resolveToolCall(
    { toolCallId: "1", toolName, input, inputError },
    new ToolRegistry([echo]),
    new UnknownToolPolicy(3),
  );

describe("resolveToolCall", () => {
  it("finds the tool and passes valid input through", () => {
    expect(resolve("echo", { text: "hi" })).toMatchObject({ ok: true, tool: echo, input: { text: "hi" } });
  });

  it("reports an unknown tool, records it with the policy, and explains bad input", () => {
    const policy = new UnknownToolPolicy(1);
    const call = { toolCallId: "1", toolName: "nope", input: {} };
    expect(resolveToolCall(call, new ToolRegistry([echo]), policy)).toMatchObject({
      ok: false,
      reason: "unknown-tool",
    });
    expect(policy.verdict(["echo"])).toBeUndefined(); // the model has not read a result of the streak yet
    resolveToolCall(call, new ToolRegistry([echo]), policy);
    expect(policy.verdict(["echo"])).toBeDefined();
    expect(resolve("echo", "raw", "the arguments are not valid JSON")).toEqual({
      ok: false,
      reason: "invalid-input",
      message:
        'Invalid arguments for "echo": the arguments are not valid JSON. Send a JSON object keyed by parameter name.',
    });
    expect(resolve("echo", [1])).toMatchObject({ message: expect.stringContaining("got an array") });
    expect(resolve("echo", { text: 1 })).toMatchObject({
      message: 'Invalid arguments for "echo": field "text" must be string.',
    });
  });
});
