import { describe, expect, it } from "vitest";
import {
  buildDynamicTools,
  buildToolCallDeltaFromDynamicRequest,
  type OpenAiFunctionTool,
} from "entity-tools/codex";

const tools: OpenAiFunctionTool[] = [
  {
    type: "function",
    function: {
      name: "search",
      description: "Search",
      parameters: { type: "object", properties: { q: { type: "string" } } },
    },
  },
  { type: "function", function: { name: "lookup" } },
];

describe("Codex mapping helpers", () => {
  it("maps function tools to dynamicTools", () => {
    expect(buildDynamicTools(tools)).toEqual([
      {
        name: "search",
        description: "Search",
        inputSchema: { type: "object", properties: { q: { type: "string" } } },
      },
      { name: "lookup", description: "", inputSchema: { type: "object", properties: {} } },
    ]);
    expect(buildDynamicTools(tools, "auto")).toHaveLength(2);
  });

  it("honours tool_choice: none offers nothing, a forced function only that one", () => {
    expect(buildDynamicTools(tools, "none")).toEqual([]);
    expect(
      buildDynamicTools(tools, { type: "function", function: { name: "lookup" } }).map((t) => t.name),
    ).toEqual(["lookup"]);
  });

  it("maps an item/tool/call request to an OpenAI tool-call delta with JSON-string arguments", () => {
    expect(
      buildToolCallDeltaFromDynamicRequest({ tool: "search", arguments: { q: "john" }, callId: "call-1" }),
    ).toEqual({
      tool_calls: [
        { id: "call-1", type: "function", function: { name: "search", arguments: '{"q":"john"}' } },
      ],
    });
    expect(
      buildToolCallDeltaFromDynamicRequest({ tool: "x", arguments: '{"a":1}', callId: "c" }).tool_calls[0]!
        .function.arguments,
    ).toBe('{"a":1}');
  });
});
