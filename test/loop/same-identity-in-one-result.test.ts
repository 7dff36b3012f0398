// One tool result that holds two different instances of one provider identity (a search returning
// `[a, c, b]` where a.id === b.id): the last one wins, in the place of the first, and the step reports
// each provider and each tool once, in both binding modes, within the tool budget.
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

/** A search whose result holds o-9 twice (10 USD, then 30 USD: the newer state) around o-10. */
function search() {
  const stale = order("o-9", 10);
  const other = order("o-10", 20);
  const newest = order("o-9", 30);
  return {
    stale,
    newest,
    tool: defineTool({
      name: "searchOrders",
      description: "Search orders",
      execute: () => [stale, other, newest],
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
  const { stale, newest, tool } = search();
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
  return { result, fake, events, discovered, injected, added, stale, newest };
}

const perInstanceTools = [
  "order_o-9_getLineItems",
  "order_o-9_getTotal",
  "order_o-10_getLineItems",
  "order_o-10_getTotal",
];

describe("two instances of one identity in one result", () => {
  it("per instance: the last instance's tools, once each, in the first one's place; nothing was replaced", async () => {
    const { result, fake, discovered, injected, added, newest } = await run({}, (fake) =>
      fake.callTool("order_o-9_getTotal"),
    );
    expect(discovered).toEqual([
      { id: "o-9", replaced: false },
      { id: "o-10", replaced: false },
    ]);
    expect(injected).toEqual([perInstanceTools]);
    expect(added).toEqual([perInstanceTools]);
    expect(result.injectedTools.map((t) => t.name)).toEqual(perInstanceTools);
    expect(result.injectedTools[0]!.origin!.instance).toBe(newest);
    expect(fake.calls[1]!.resultText).toBe('{"amount":30,"currency":"USD"}');
    expect(result.counters.providersDiscovered).toBe(2);
  });

  // Four tools fit: the duplicate's two are not counted (they were, and o-9's newer state was skipped).
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
      expect(fake.calls[1]!.resultText).toBe('{"amount":30,"currency":"USD"}');
      expect(result.injectedTools.map((t) => t.name)).toEqual(perInstanceTools);
    },
  );

  it("handles: one handle per identity, live as the last instance; nothing was replaced", async () => {
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
    expect(fake.calls[1]!.resultText).toBe('{"amount":30,"currency":"USD"}');
    // Order is not known up front: its handle tools join once, at its first discovery.
    expect(injected).toEqual([["order_getLineItems", "order_getTotal"]]);
    expect(added).toEqual(injected);
    expect(result.injectedTools.map((t) => t.name)).toEqual(["order_getLineItems", "order_getTotal"]);
    expect(result.counters.providersDiscovered).toBe(2);
  });

  it("a strategy of one's own that adds both instances' tools at once: the same rule", async () => {
    const { stale, newest } = search();
    const both: ToolInjectionStrategy = {
      evaluateToolResult: ({ lastToolCall }) =>
        lastToolCall.toolName === "pair"
          ? { add: [...bindProviderTools(stale), ...bindProviderTools(newest)] }
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
    expect(fake.calls[1]!.resultText).toBe('{"amount":30,"currency":"USD"}');
    expect(result.injectedTools.map((t) => t.name)).toEqual(o9);
  });
});
