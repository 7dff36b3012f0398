// One tool result that holds two different instances of one provider identity (a search returning
// `[a, c, b]` where a.id === b.id): the first one wins, the later one is skipped, the model is told
// which one the tools work on, and the step reports each provider and each tool once, in both binding
// modes, within the tool budget.
import "../fixtures/store/register.js";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  bindProviderTools,
  defineTool,
  estimateDefinitionTokens,
  type AddedRecord,
  type RunLogRecord,
  type DiscoveryOptions,
  type ToolInjectionStrategy,
  type ToolLoopEvent,
} from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { LineItem, Order } from "../fixtures/store/order.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const order = (id: string, unitPrice: number) =>
  new Order(id, "c1", new Date(0), [new LineItem("KB-01", "Keyboard", 1, unitPrice)]);

/** A search whose result holds o-9 twice (10 USD first, then 30 USD) around o-10. */
function search() {
  const first = order("o-9", 10);
  const other = order("o-10", 20);
  const later = order("o-9", 30);
  return {
    first,
    later,
    tool: defineTool({
      name: "searchOrders",
      description: "Search orders",
      execute: () => [first, other, later],
    }),
  };
}

/** Runs the search then `then` (the model's next turn), with an observer, a run log and `discovery`. */
async function run(
  discovery: DiscoveryOptions,
  then: (fake: FakePromptRunner, events: ToolLoopEvent[]) => void,
) {
  const dir = mkdtempSync(path.join(tmpdir(), "same-identity-"));
  dirs.push(dir);
  const { first, later, tool } = search();
  const events: ToolLoopEvent[] = [];
  const fake = new FakePromptRunner();
  const runner = fake
    .withTools(tool)
    .withToolProviderDiscovery(discovery)
    .withRunLog(dir)
    .withObserver((e) => events.push(e));
  fake.callTool("searchOrders");
  then(fake, events);
  fake.respondWithText("done");
  const result = await runner.run("What is order o-9's total?");
  const [file] = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  const log = readFileSync(path.join(dir, file!), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as RunLogRecord);
  const discovered = events.flatMap((e) =>
    e.type === "ToolProviderDiscovered" ? [{ id: e.identity.id, replaced: e.replacedEarlierInstance }] : [],
  );
  const injected = events.flatMap((e) => (e.type === "ToolsInjected" ? [e.toolNames] : []));
  const added = log.filter((r): r is AddedRecord => r.type === "added").map((r) => r.tools);
  return { result, fake, events, discovered, injected, added, first, later };
}

const repeatedNotice = (what: string) =>
  `Order o-9 is in this result more than once: its ${what} on its first instance in the result`;

const perInstanceTools = [
  "order_o-9_getLineItems",
  "order_o-9_getTotal",
  "order_o-10_getLineItems",
  "order_o-10_getTotal",
];

describe("two instances of one identity in one result", () => {
  it("per instance: the first instance's tools, once each; nothing was replaced; the model is told", async () => {
    const { result, fake, discovered, injected, added, first } = await run({}, (fake) =>
      fake.callTool("order_o-9_getTotal"),
    );
    expect(discovered).toEqual([
      { id: "o-9", replaced: false },
      { id: "o-10", replaced: false },
    ]);
    expect(injected).toEqual([perInstanceTools]);
    expect(added).toEqual([perInstanceTools]);
    expect(result.injectedTools.map((t) => t.name)).toEqual(perInstanceTools);
    expect(result.injectedTools[0]!.origin!.instance).toBe(first);
    expect(fake.calls[0]!.resultText).toContain(repeatedNotice("tools work"));
    expect(fake.calls[1]!.resultText).toBe('{"amount":10,"currency":"USD"}');
    expect(result.counters.providersDiscovered).toBe(2);
  });

  // Four tools fit: the later instance's two are not counted (they were, and o-10 lost its place).
  it.each(["maxInjectedTools", "maxInjectedTokens"] as const)(
    "per instance: %s counts the identity once",
    async (limit) => {
      const four = [...bindProviderTools(order("o-9", 0)), ...bindProviderTools(order("o-10", 0))];
      const budget: DiscoveryOptions =
        limit === "maxInjectedTools"
          ? { maxInjectedTools: four.length }
          : { maxInjectedTokens: four.reduce((sum, t) => sum + estimateDefinitionTokens(t), 0) };
      const { result, fake, injected } = await run(budget, (fake) => fake.callTool("order_o-9_getTotal"));
      expect(injected).toEqual([perInstanceTools]);
      expect(fake.calls[0]!.resultText).not.toContain("Tool budget reached");
      expect(fake.calls[1]!.resultText).toBe('{"amount":10,"currency":"USD"}');
      expect(result.injectedTools.map((t) => t.name)).toEqual(perInstanceTools);
    },
  );

  // Past the budget the ids are still read, so the notice counts the entities actually left without
  // tools: o-9 again (bound) and o-11 again (one entity) are not entities of their own.
  it("per instance: the budget notice counts a later instance of an identity once", async () => {
    const [o9, o10, o11, o12] = ["o-9", "o-10", "o-11", "o-12"].map((id) => order(id, 1));
    const results = defineTool({
      name: "searchOrders",
      description: "Search orders",
      execute: () => [o9, o10, o11, order("o-9", 2), order("o-11", 2), o12],
    });
    const fake = new FakePromptRunner();
    fake.callTool("searchOrders").respondWithText("done");
    await fake.withTools(results).withToolProviderDiscovery({ maxInjectedTools: 2 }).run("q");
    expect(fake.calls[0]!.resultText).toContain(
      "Tool budget reached: of this result's 4 entities, only the first 1 got tools (2 tools); " +
        "the other 3 did not.",
    );
  });

  it("handles: one handle per identity, live as the first instance; nothing was replaced", async () => {
    const { result, fake, discovered, injected, added } = await run({ binding: "handles" }, (fake, events) =>
      fake.respondWith("o-9's total by its handle", () => {
        const handle = events.find((e) => e.type === "ToolProviderDiscovered" && e.identity.id === "o-9");
        return {
          toolCalls: [
            {
              toolName: "order_getTotal",
              input: { handle: handle?.type === "ToolProviderDiscovered" ? handle.handle : undefined },
            },
          ],
        };
      }),
    );
    expect(discovered).toEqual([
      { id: "o-9", replaced: false },
      { id: "o-10", replaced: false },
    ]);
    const handles = JSON.parse(/Order handles (\[[^\]]*\])/.exec(fake.calls[0]!.resultText)![1]!) as string[];
    expect(handles).toHaveLength(2);
    expect(fake.calls[0]!.resultText).toContain(repeatedNotice("handle works"));
    expect(fake.calls[1]!.resultText).toBe('{"amount":10,"currency":"USD"}');
    // Order is not known up front: its handle tools join once, at its first discovery.
    expect(injected).toEqual([["order_getLineItems", "order_getTotal"]]);
    expect(added).toEqual(injected);
    expect(result.injectedTools.map((t) => t.name)).toEqual(["order_getLineItems", "order_getTotal"]);
    expect(result.counters.providersDiscovered).toBe(2);
  });

  it("per instance: across results the newest state still wins, the later result's first instance", async () => {
    const { first, later, tool } = search();
    const earlier = order("o-9", 5);
    const older = defineTool({ name: "oldOrder", description: "Old", execute: () => earlier });
    const events: ToolLoopEvent[] = [];
    const fake = new FakePromptRunner();
    fake.callTool("oldOrder").callTool("searchOrders").callTool("order_o-9_getTotal").respondWithText("done");
    const result = await fake
      .withTools(older, tool)
      .withToolProviderDiscovery({})
      .withObserver((e) => events.push(e))
      .run("q");
    expect(
      events.flatMap((e) =>
        e.type === "ToolProviderDiscovered" ? [[e.identity.id, e.replacedEarlierInstance]] : [],
      ),
    ).toEqual([
      ["o-9", false],
      ["o-10", false],
      ["o-9", true],
    ]);
    expect(fake.calls[2]!.resultText).toBe('{"amount":10,"currency":"USD"}');
    // Each addition is listed: the earlier result's o-9, then this result's first.
    const o9 = result.injectedTools.filter((t) => t.name === "order_o-9_getTotal");
    expect(o9.map((t) => t.origin!.instance)).toEqual([earlier, first]);
    expect(result.injectedTools.some((t) => t.origin?.instance === later)).toBe(false);
  });

  it("a strategy of one's own that adds both instances' tools at once: the same rule", async () => {
    const { first, later } = search();
    const both: ToolInjectionStrategy = {
      evaluateToolResult: ({ lastToolCall }) =>
        lastToolCall.toolName === "pair"
          ? { add: [...bindProviderTools(first), ...bindProviderTools(later)] }
          : {},
    };
    const pair = defineTool({ name: "pair", description: "Both", execute: () => "two orders" });
    const events: ToolLoopEvent[] = [];
    const fake = new FakePromptRunner();
    fake.callTool("pair").callTool("order_o-9_getTotal").respondWithText("done");
    const result = await fake
      .withTools(pair)
      .withInjectionStrategy(both)
      .withMaxInjectedTools(2)
      .withObserver((e) => events.push(e))
      .run("q");
    const o9 = ["order_o-9_getLineItems", "order_o-9_getTotal"];
    expect(events.flatMap((e) => (e.type === "ToolsInjected" ? [e.toolNames] : []))).toEqual([o9]);
    expect(
      events.flatMap((e) => (e.type === "ToolProviderDiscovered" ? [e.replacedEarlierInstance] : [])),
    ).toEqual([false]);
    expect(fake.calls[0]!.resultText).not.toContain("Tool budget reached");
    expect(fake.calls[1]!.resultText).toBe('{"amount":10,"currency":"USD"}');
    expect(result.injectedTools.map((t) => t.name)).toEqual(o9);
  });
});
