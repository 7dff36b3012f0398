// A mistyped handle or tool name must not stall the process: the "closest name" suggestion compares a
// bounded number of characters, so its work is counted here, not timed.
import { describe, expect, it } from "vitest";
import { EntityHandleCodec, HandleBindings, LlmTool, ToolProvider, handleToolsOf } from "entity-tools";
import { closestNames, MAX_COMPARED_CHARS } from "../../src/tools/did-you-mean.js";

@ToolProvider({ prefix: "doc" })
class Doc {
  constructor(public id: string) {}
  @LlmTool("Read this document")
  read(): string {
    return `read ${this.id.length}`;
  }
}

const longId = (i: number) => `${String(i).padStart(4, "0")}-${"x".repeat(10_000)}`;

describe("the closest-name suggestion does bounded work", () => {
  it("a 20 kB junk text against 1 000 live 10 kB handles: at most 64 × 64 steps per handle", () => {
    const codec = new EntityHandleCodec("a-handle-key-of-16-bytes");
    const handles = Array.from({ length: 1000 }, (_, i) => codec.handleOf(new Doc(longId(i))));
    const work = { cells: 0 };
    closestNames("j".repeat(20_000), handles, 3, work);
    expect(work.cells).toBeLessThanOrEqual(handles.length * MAX_COMPARED_CHARS ** 2);
  });

  it("six providers with 10 kB ids: a mistyped handle still gets its suggestion, within the same bound", () => {
    const codec = new EntityHandleCodec("a-handle-key-of-16-bytes");
    const handles = Array.from({ length: 6 }, (_, i) => codec.handleOf(new Doc(longId(i))));
    const work = { cells: 0 };
    const wrong = `${handles[2]!.slice(0, -1)}A`;
    expect(closestNames(wrong, handles, 3, work)[0]).toBe(handles[2]);
    expect(work.cells).toBeLessThanOrEqual(6 * MAX_COMPARED_CHARS ** 2);
  });

  it("a 20 kB wrong handle is quoted cut, with its length, in the message the model reads", () => {
    const codec = new EntityHandleCodec("a-handle-key-of-16-bytes");
    const bindings = new HandleBindings(codec);
    const [read] = handleToolsOf(Doc, bindings);
    for (let i = 0; i < 1000; i++) bindings.remember(new Doc(longId(i)));
    const message = read!.checkInput!({ handle: `Doc:${"j".repeat(20_000)}` })!;
    expect(message).toContain(`"Doc:${"j".repeat(76)}… (20004 characters)" is not a handle`);
    expect(message).not.toContain("j".repeat(81));
  });

  it("unknown tool names keep their suggestions (names are shorter than the cap)", () => {
    expect(closestNames("ecko", ["echo", "customer_getAverageSpend"])).toEqual(["echo"]);
    expect(closestNames("customer_getAvgSpend", ["echo", "customer_getAverageSpend"])).toEqual([
      "customer_getAverageSpend",
    ]);
  });
});
