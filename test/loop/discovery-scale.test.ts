// One tool result holding 100 000 providers: the run goes on, and the model is offered what the budget
// rule says (the first entities, whole) and reads how many were left out. Nothing on the way spreads
// an unbounded array into a call (that overflowed the stack at about 45 000).
import { describe, expect, it } from "vitest";
import { defineTool, LlmTool, ToolProvider, ToolProviderStrategy, type ToolLoopEvent } from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";

@ToolProvider({ prefix: "node" })
class GraphNode {
  constructor(readonly id: string) {}

  @LlmTool("Read this node")
  read(): string {
    return `node ${this.id}`;
  }

  @LlmTool("Describe this node")
  describe(): string {
    return `a node called ${this.id}`;
  }
}

const COUNT = 100_000;
const nodes = Array.from({ length: COUNT }, (_, i) => new GraphNode(`n${i}`));
const listNodes = defineTool({ name: "listNodes", description: "Every node", execute: () => nodes });

describe("one result with 100 000 providers", () => {
  it("within the default budget of 64: the first 32 nodes are offered whole, the model reads how many were not", async () => {
    const fake = new FakePromptRunner();
    fake.callTool("listNodes").callTool("node_n31_describe").respondWithText("done");
    const run = await fake.withTools(listNodes).withToolProviderDiscovery().run("go");
    expect(run.result).toBe("done");
    const first32 = nodes.slice(0, 32).flatMap((n) => [`node_${n.id}_read`, `node_${n.id}_describe`]);
    expect(fake.toolsOfferedAt(2)).toEqual(["listNodes", ...first32]);
    expect(fake.callsAt(1)[0]!.resultText).toContain(
      "[Tool budget reached: of this result's 100000 entities, only the first 32 got tools (64 tools); the other 99968 did not.",
    );
    expect(fake.callsAt(2)[0]!.resultText).toBe("a node called n31");
    expect(run.counters.providersDiscovered).toBe(32);
  });

  it("with room for all of them: every node's tools are offered, and every event is delivered", async () => {
    const fake = new FakePromptRunner();
    fake.callTool("listNodes").callTool("node_n99999_read").respondWithText("done");
    const discovered: ToolLoopEvent[] = [];
    const run = await fake
      .withTools(listNodes)
      .withToolProviderDiscovery({ maxInjectedTools: 2 * COUNT })
      .withObserver((event) => {
        if (event.type === "ToolProviderDiscovered") discovered.push(event);
      })
      .run("go");
    expect(run.result).toBe("done");
    expect(fake.toolsOfferedAt(2)).toHaveLength(1 + 2 * COUNT);
    expect(fake.injectedToolNames).toHaveLength(2 * COUNT);
    expect(run.injectedTools).toHaveLength(2 * COUNT);
    expect(discovered).toHaveLength(COUNT);
    expect(fake.callsAt(2)[0]!.resultText).toBe("node n99999");
  });

  it("the strategy builds tools only for what the budget can bind, and says how many it left out", () => {
    const context = (toolBudget?: { fits(tools: readonly unknown[]): boolean }) => ({
      conversationHistory: [],
      currentTools: [],
      lastToolCall: { toolName: "listNodes", toolInput: {}, result: "", resultObject: nodes },
      iterationCount: 1,
      ...(toolBudget ? { toolBudget } : {}),
    });
    const asked: number[] = [];
    const room = { fits: (tools: readonly unknown[]) => (asked.push(tools.length), tools.length <= 64) };
    const seen = new ToolProviderStrategy().evaluateToolResult(context(room)) as {
      add: readonly { name: string }[];
      unbound: number;
    };
    // 33 providers built (the 33rd is the first that does not fit; the budget skips it), not 100 000
    expect(seen.add).toHaveLength(66);
    expect(seen.unbound).toBe(COUNT - 33);
    expect(asked).toHaveLength(33);
    // a caller that passes no budget (the old shape) gets every provider's tools
    const all = new ToolProviderStrategy().evaluateToolResult(context()) as { add: readonly unknown[] };
    expect(all.add).toHaveLength(2 * COUNT);
    expect(all).not.toHaveProperty("unbound");
  });
});
