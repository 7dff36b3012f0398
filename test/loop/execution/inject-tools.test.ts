import { describe, expect, it } from "vitest";
import { defineTool, StrategyError, type ToolInjectionStrategy, type ToolLoopEvent } from "entity-tools";
import { RunEvents } from "../../../src/events/run-events.js";
import { ToolInjector } from "../../../src/loop/execution/inject-tools.js";
import { ToolRegistry } from "../../../src/tools/tool-registry.js";

const tool = (name: string) => defineTool({ name, description: name, execute: () => name });
const trigger = { toolName: "t", input: {}, resultText: "r", value: "r", iteration: 1, history: [] };

function injector(
  strategies: ToolInjectionStrategy[],
  registry = new ToolRegistry([tool("t")], { maxInjectedTools: 1 }),
) {
  const events: ToolLoopEvent[] = [];
  return {
    events,
    registry,
    injector: new ToolInjector(registry, strategies, new RunEvents([(e) => events.push(e)]), undefined),
  };
}

describe("ToolInjector", () => {
  it("applies each strategy's change before the next strategy runs, in order", async () => {
    const seen: string[][] = [];
    const { injector: i, registry } = injector([
      { evaluateToolResult: () => ({ add: [tool("a")] }) },
      { evaluateToolResult: (c) => (seen.push(c.currentTools.map((t) => t.name)), { remove: ["a"] }) },
    ]);
    await i.evaluate(trigger);
    expect(seen).toEqual([["t", "a"]]);
    expect(registry.names()).toEqual(["t"]);
    expect(i.injected.map((t) => t.name)).toEqual(["a"]);
  });

  it("tells the model what the budget evicted, and reports it", async () => {
    const { injector: i, events } = injector([
      { evaluateToolResult: () => ({ add: [tool("a"), tool("b")] }) },
    ]);
    const { notices } = await i.evaluate(trigger);
    expect(notices).toEqual([
      "Tool budget reached: these least recently used tools were removed: a. Call the tool that returned their object again to get them back.",
    ]);
    expect(events.find((e) => e.type === "ToolsRemoved")).toMatchObject({
      toolNames: ["a"],
      reason: "budget",
    });
  });

  it("stops at the first restart request, and wraps a strategy's failure", async () => {
    const after = { evaluateToolResult: () => ({ add: [tool("never")] }) };
    const { injector: i, registry } = injector([
      { evaluateToolResult: () => ({ restart: { reason: "again" } }) },
      after,
    ]);
    expect(await i.evaluate(trigger)).toEqual({ notices: [], restart: { reason: "again" } });
    expect(registry.names()).toEqual(["t"]);
    const failing = injector([{ evaluateToolResult: () => Promise.reject(new Error("bug")) }]).injector;
    await expect(failing.evaluate(trigger)).rejects.toThrow(StrategyError);
  });
});
