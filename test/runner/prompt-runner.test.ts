import "../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  DuplicateToolNameError,
  InvalidSettingError,
  InvalidToolNameError,
  MissingOutputSchemaError,
  PromptRunner,
  StrategyError,
} from "entity-tools";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";
import { call, mockModel, offeredAt, text } from "../support/mock-model.js";

describe("PromptRunner", () => {
  it("every with* returns a new runner and leaves the original unchanged", async () => {
    const model = mockModel(text("a"), text("b"));
    const base = new PromptRunner({ model });
    const withTools = base.withTools(new CustomerSearchTools());
    expect(withTools).not.toBe(base);
    await base.generateText("q");
    await withTools.generateText("q");
    expect(offeredAt(model, 0)).toEqual([]);
    expect(offeredAt(model, 1)).toEqual(["searchCustomer", "findCustomers"]);
  });

  it("generateText returns the final text", async () => {
    expect(await new PromptRunner({ model: mockModel(text("hello")) }).generateText("hi")).toBe("hello");
  });

  it("createObject takes a JSON Schema and returns the parsed object", async () => {
    const model = mockModel(text('{"n": 3}'));
    const value = await new PromptRunner({ model }).createObject<{ n: number }>(
      { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      "count",
    );
    expect(value).toEqual({ n: 3 });
  });

  it("createObject with a class that has no generated schema fails before any model call", async () => {
    class Unknown {
      x!: string;
    }
    const model = mockModel(text("{}"));
    await expect(new PromptRunner({ model }).createObject(Unknown, "q")).rejects.toThrow(
      MissingOutputSchemaError,
    );
    await expect(new PromptRunner({ model }).createObject(Unknown, "q")).rejects.toThrow(
      /^No output schema for class Unknown: generate it with `npx entity-tools schemas .* --type Unknown` and pass the module to registerToolSchemas\(\)/,
    );
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("withTools rejects two tools of one name and objects without tools", () => {
    const runner = new PromptRunner({ model: mockModel() }).withTools(new CustomerSearchTools());
    expect(() =>
      runner.withTools(defineTool({ name: "findCustomers", description: "dup", execute: () => 1 })),
    ).toThrow(new DuplicateToolNameError("findCustomers"));
    expect(() => runner.withTools(new Date())).toThrow(/Date has neither/);
  });

  // As defineTool does: a provider would refuse the request (at the first model call), and a name of
  // digits, which some take, was listed first by the SDK's key order and in its place by a direct step.
  it("withTools refuses a tool made by hand whose name breaks the naming contract", () => {
    const byHand = (name: string) => ({
      name,
      description: `Tool ${name}`,
      inputSchema: { type: "object" as const, properties: {} },
      execute: () => name,
    });
    const runner = new PromptRunner({ model: mockModel() });
    expect(() => runner.withTools(byHand("get customer"))).toThrow(new InvalidToolNameError("get customer"));
    expect(() => runner.withTools(byHand("10"))).toThrow(InvalidToolNameError);
    expect(runner.withTools(byHand("getCustomer"))).toBeInstanceOf(PromptRunner);
  });

  it("a strategy that adds a tool whose name breaks the naming contract fails the run, naming it, before the provider sees it", async () => {
    const model = mockModel(call("searchCustomer", { name: "John Smith" }), text("never"));
    const error = await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withInjectionStrategy({
        evaluateToolResult: () => ({
          add: [
            {
              name: "2",
              description: "Two",
              inputSchema: { type: "object", properties: {} },
              execute: () => 2,
            },
          ],
        }),
      })
      .run("q")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrategyError);
    expect((error as StrategyError).message).toMatch(/Tool name "2" must match/);
    expect((error as StrategyError).cause).toBeInstanceOf(InvalidToolNameError);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("observers see every event of a run, tagged with its run id, and cannot break it", async () => {
    const model = mockModel(call("searchCustomer", { name: "John Smith" }), text("ok"));
    const types: string[] = [];
    const runIds = new Set<string>();
    const run = await new PromptRunner({ model })
      .withTools(new CustomerSearchTools())
      .withToolProviderDiscovery()
      .withObserver((e) => {
        types.push(e.type);
        runIds.add(e.runId);
      })
      .withObserver(() => {
        throw new Error("observer bug");
      })
      .run("q");
    expect(run.result).toBe("ok");
    expect(types).toEqual([
      "RunStarted",
      "ToolLoopIteration",
      "ModelResponded",
      "ToolCallStarted",
      "ToolProviderDiscovered",
      "ToolsInjected",
      "ToolInvoked",
      "ToolLoopIteration",
      "ModelResponded",
      "RunFinished",
    ]);
    expect(runIds.size).toBe(1);
  });

  it("refuses nonsensical settings the same way everywhere, naming the setting and the rule", () => {
    const runner = new PromptRunner({ model: mockModel() });
    const refusals: [() => unknown, string][] = [
      [
        () => runner.withMaxToolIterations(0),
        "withMaxToolIterations(maxIterations) must be a whole number of at least 1, got 0",
      ],
      [
        () => runner.withMaxToolIterations(2.5),
        "withMaxToolIterations(maxIterations) must be a whole number of at least 1, got 2.5",
      ],
      [() => runner.withToolTimeout(-1), "withToolTimeout(ms) must be a number from 1 to 2147483647, got -1"],
      [
        () => runner.withToolTimeout(2 ** 31),
        "withToolTimeout(ms) must be a number from 1 to 2147483647, got 2147483648",
      ],
      [
        () => runner.withToolTimeout(Number.NaN),
        "withToolTimeout(ms) must be a number from 1 to 2147483647, got NaN",
      ],
      [
        () => runner.withMaxOutputRepairs(-1),
        "withMaxOutputRepairs(repairs) must be a whole number of at least 0, got -1",
      ],
      [
        () => runner.withMaxResultChars(0),
        "withMaxResultChars(chars) must be a whole number of at least 1, got 0",
      ],
      [
        () => runner.withMaxExpansions(Infinity),
        "withMaxExpansions(maxExpansions) must be a whole number of at least 0, got Infinity",
      ],
      [
        () => runner.withMaxUnknownToolCalls(0),
        "withMaxUnknownToolCalls(maxUnknownToolCalls) must be a whole number of at least 1, got 0",
      ],
      [
        () => runner.withToolProviderDiscovery({ maxInjectedTools: -3 }),
        "maxInjectedTools must be a whole number of at least 1, got -3",
      ],
    ];
    for (const [call, message] of refusals) {
      expect(call).toThrow(InvalidSettingError);
      expect(call).toThrow(message);
    }
  });
});
