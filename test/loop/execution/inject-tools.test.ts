import { describe, expect, it } from "vitest";
import { defineTool, StrategyError, type ToolInjectionStrategy, type ToolLoopEvent } from "entity-tools";
import { RunEvents } from "../../../src/events/run-events.js";
import { ToolInjector } from "../../../src/loop/execution/inject-tools.js";
import { ToolRegistry } from "../../../src/tools/tool-registry.js";

const tool = (name: string) => defineTool({ name, description: name, execute: () => name });
const trigger = {
  toolName: "t",
  toolCallId: "c1",
  input: {},
  resultText: "r",
  value: "r",
  isError: false,
  iteration: 1,
  history: [],
};

/** What the model reads when an addition's first item got tools and 2 more did not. */
const BUDGET_NOTICE =
  "Tool budget reached: of this result's 3 items, only the first 1 got tools (1 tool); the other 2 did not. Calling the same tool again binds the same first ones. To reach one of the others, call a tool that returns fewer results with it among the first (a narrower search, a filter, a smaller page).";

function injector(
  strategies: ToolInjectionStrategy[],
  registry = new ToolRegistry([tool("t")], { maxInjectedTools: 1 }),
) {
  const events: ToolLoopEvent[] = [];
  const added: string[] = [];
  const injector = new ToolInjector(
    registry,
    strategies,
    new RunEvents([(e) => events.push(e)]),
    undefined,
    (tools) => added.push(...tools.map((t) => t.name)),
  );
  return { events, registry, injector, added };
}

describe("ToolInjector", () => {
  it("applies each strategy's change before the next strategy runs, in order", async () => {
    const seen: string[][] = [];
    const {
      injector: i,
      registry,
      added,
    } = injector([
      { evaluateToolResult: () => ({ add: [tool("a")] }) },
      { evaluateToolResult: (c) => (seen.push(c.currentTools.map((t) => t.name)), { remove: ["a"] }) },
    ]);
    await i.evaluate(trigger);
    expect(seen).toEqual([["t", "a"]]);
    expect(registry.names()).toEqual(["t"]);
    expect(added).toEqual(["a"]);
  });

  it("one addition larger than the budget keeps its first tools and says how many were left out", async () => {
    const {
      injector: i,
      events,
      registry,
    } = injector([{ evaluateToolResult: () => ({ add: [tool("a"), tool("b"), tool("c")] }) }]);
    const { notices } = await i.evaluate(trigger);
    expect(registry.names()).toEqual(["t", "a"]);
    expect(notices).toEqual([BUDGET_NOTICE]);
    expect(events.filter((e) => e.type === "ToolsRemoved")).toEqual([]);
  });

  it("tells the model what the budget evicted of an earlier addition, and reports it", async () => {
    const added = [tool("a"), tool("b")];
    const {
      injector: i,
      events,
      registry,
    } = injector([{ evaluateToolResult: () => ({ add: [added.shift()!] }) }]);
    await i.evaluate(trigger);
    const { notices } = await i.evaluate(trigger);
    expect(registry.names()).toEqual(["t", "b"]);
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

  it("a strategy that stopped where the budget was full (its unbound items) has the model told, though all it added fit", async () => {
    const { injector: i, registry } = injector([
      { evaluateToolResult: () => ({ add: [tool("a")], unbound: 2 }) },
    ]);
    const { notices } = await i.evaluate(trigger);
    expect(registry.names()).toEqual(["t", "a"]);
    expect(notices).toEqual([BUDGET_NOTICE]);
  });

  it("a strategy still deciding when the run is cancelled: the evaluation fails with the cancellation's reason, not a StrategyError", async () => {
    const controller = new AbortController();
    const undecided = { evaluateToolResult: () => new Promise<never>(() => {}) };
    const i = new ToolInjector(
      new ToolRegistry([tool("t")]),
      [undecided],
      new RunEvents([]),
      controller.signal,
      () => {},
    );
    const evaluation = i.evaluate(trigger);
    const reason = new Error("user left");
    controller.abort(reason);
    await expect(evaluation).rejects.toBe(reason);
  });
});
