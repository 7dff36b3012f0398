// A run's dynamic sources (MCP servers) are listed again between steps only after they announce a change
// (or their list expires); the difference reaches the run's tools, and observers hear what changed.
import { describe, expect, it } from "vitest";
import { defineTool, type AnyTool, type DynamicToolSource, type ToolLoopEvent } from "entity-tools";
import { RunEvents } from "../../../src/events/run-events.js";
import { SourceWatch } from "../../../src/loop/sources/source-watch.js";
import { ToolRegistry } from "../../../src/tools/tool-registry.js";

const tool = (name: string, description = `The ${name} tool`): AnyTool =>
  defineTool({ name, description, inputSchema: { type: "object", properties: {} }, execute: () => name });

/** A source whose list the test sets, and which announces a change when told to. */
class FakeSource implements DynamicToolSource {
  readonly label = "mcp:shop";
  listed = 0;
  watching = false;
  private announce: () => void = () => {};

  constructor(public tools: AnyTool[]) {}

  async open(): Promise<void> {}
  async listTools() {
    this.listed++;
    return { tools: this.tools, skipped: [] };
  }
  watch(listener: () => void): () => void {
    this.announce = listener;
    this.watching = true;
    return () => {
      this.watching = false;
    };
  }
  change(tools: AnyTool[]): void {
    this.tools = tools;
    this.announce();
  }
}

function watched(own: AnyTool[], source: FakeSource) {
  const events: ToolLoopEvent[] = [];
  const registry = new ToolRegistry([...own, ...source.tools]);
  const watch = new SourceWatch(
    [{ source, tools: source.tools }],
    registry,
    new RunEvents([(e) => events.push(e)]),
    undefined,
    (tools) => (registry.add(tools), [...registry.names()]),
  );
  return { events, registry, watch };
}

describe("source watch", () => {
  it("lists a source again only after it announced a change, and applies the difference", async () => {
    const source = new FakeSource([tool("cart"), tool("stock")]);
    const { events, registry, watch } = watched([tool("notes")], source);
    await watch.refresh();
    expect(source.listed).toBe(0);

    source.change([tool("cart", "The cart, now with totals"), tool("checkout")]);
    await watch.refresh();
    expect(source.listed).toBe(1);
    expect(registry.names()).toEqual(["notes", "cart", "checkout"]);
    expect(registry.get("cart")?.description).toBe("The cart, now with totals");
    expect(events.map((e) => [e.type, "toolNames" in e ? e.toolNames : undefined])).toEqual([
      ["ToolsRemoved", ["stock"]],
      ["SourceToolChanged", ["cart"]],
    ]);
    await watch.refresh();
    expect(source.listed).toBe(1);
  });

  it("reports a tool changed only when its definition differs from the one the run has now", async () => {
    const source = new FakeSource([tool("cart", "v1")]);
    const { events, registry, watch } = watched([], source);
    const changes = () => events.filter((e) => e.type === "SourceToolChanged").length;
    for (const [description, expected] of [
      ["v1", 0], // listed again as it was: unchanged
      ["v2", 1],
      ["v2", 1], // the same as the one that replaced it
      ["v1", 2],
    ] as const) {
      source.change([tool("cart", description)]);
      await watch.refresh();
      expect(changes()).toBe(expected);
      expect(registry.get("cart")?.description).toBe(description);
    }
  });

  it("leaves a name the runner's own tools hold to them: the source's tool is skipped and reported", async () => {
    const source = new FakeSource([tool("cart")]);
    const { events, registry, watch } = watched([tool("notes", "The runner's notes")], source);
    source.change([tool("cart"), tool("notes", "The shop's notes")]);
    await watch.refresh();
    expect(registry.get("notes")?.description).toBe("The runner's notes");
    expect(events).toMatchObject([
      {
        type: "SourceToolSkipped",
        source: "mcp:shop",
        toolName: "notes",
        reason: "the name is taken by a tool of the runner",
      },
    ]);
  });

  it("stops listening when the run ends", () => {
    const source = new FakeSource([]);
    const { watch } = watched([], source);
    expect(source.watching).toBe(true);
    watch.stop();
    expect(source.watching).toBe(false);
  });
});
