// The tools offered at a step, as the viewer asks for them when a step is opened: the same answers on a
// long run with whole lists every TOOL_SET_CHECKPOINT steps and a lost step line, and an answer that looks
// at the step records from the last whole list on, not at the whole run.
import { describe, expect, it } from "vitest";
import { readRunLog, runView, type RunLogRead } from "entity-tools";
import { TOOL_SET_CHECKPOINT } from "../../src/run-log/run-log-format.js";
import { runHeaderLine } from "../support/run-log-header.js";

const STEPS = 2_000;
const LOST = 250;

/**
 * A run whose tool set changes at most steps (a tool joins, the oldest leaves past 20; every seventh step
 * nothing changes), written as the recorder writes it, step `LOST`'s line damaged; and each step's set.
 */
function longRun(): { text: string; offered: string[][] } {
  const lines = [runHeaderLine()];
  const offered: string[][] = [];
  let tools = ["search"];
  for (let step = 1; step <= STEPS; step++) {
    const added = step % 7 === 0 ? [] : [`tool_${step}`];
    const removed = added.length > 0 && tools.length >= 20 ? [tools[0]!] : [];
    tools = [...tools.filter((t) => !removed.includes(t)), ...added];
    offered[step] = tools;
    const change = (step - 1) % TOOL_SET_CHECKPOINT === 0 ? { tools } : { added, removed };
    const record = { type: "step", step, iteration: step, ms: step, count: tools.length, ...change };
    lines.push(step === LOST ? '{"type":"step",,' : JSON.stringify(record));
  }
  return { text: `${lines.join("\n")}\n`, offered };
}

/** `read` with each record counting the times it is looked at (any of its fields read). */
function counted(read: RunLogRead): { read: RunLogRead; looked: Set<object> } {
  const looked = new Set<object>();
  const records = read.records.map(
    (record) =>
      new Proxy(record, {
        get(target, key, receiver) {
          looked.add(target);
          return Reflect.get(target, key, receiver) as unknown;
        },
      }),
  );
  return { read: { ...read, records }, looked };
}

describe("RunView.toolsAt", () => {
  it("gives each step's tools on a 2 000-step run with checkpoints and a lost step line, unknown from the loss to the next whole list", () => {
    const { text, offered } = longRun();
    const view = runView(readRunLog(text));
    const nextList = LOST + TOOL_SET_CHECKPOINT - ((LOST - 1) % TOOL_SET_CHECKPOINT);
    for (let step = 1; step <= STEPS; step++) {
      const known = step < LOST || step >= nextList;
      expect(view.toolsAt(step), `step ${step}`).toEqual(known ? offered[step] : undefined);
    }
    expect(view.toolsAt(0)).toBeUndefined();
    expect(view.toolsAt(STEPS + 1)).toBeUndefined();
  });

  it("opening a step looks at the step records from the last whole list on, not at the whole run", () => {
    const { read, looked } = counted(readRunLog(longRun().text));
    const view = runView(read);
    looked.clear();
    view.toolsAt(1_950);
    // Step 1 950 replays the changes after the whole list of step 1 901: 50 records, and the list's own.
    expect(looked.size).toBe(50);
    looked.clear();
    view.toolsAt(1_901);
    expect(looked.size).toBe(1);
  });
});

describe("RunView's causes of tool changes", () => {
  it("a tool that leaves again later leaves for its own reason, not for the earlier step's", () => {
    const records = [
      { type: "step", step: 1, iteration: 1, ms: 1, count: 2, tools: ["search", "spend"] },
      { type: "removed", step: 1, tools: ["spend"], reason: "budget", by: "c1" },
      { type: "step", step: 2, iteration: 2, ms: 2, count: 1, added: [], removed: ["spend"] },
      { type: "added", step: 2, tools: ["spend"], byTool: "search", by: "c2" },
      { type: "step", step: 3, iteration: 3, ms: 3, count: 2, added: ["spend"], removed: [] },
      { type: "restart", step: 3, cause: "strategy", reason: "restart" },
      { type: "step", step: 4, iteration: 4, ms: 4, count: 1, added: [], removed: ["spend"] },
    ];
    const text = [runHeaderLine(), ...records.map((r) => JSON.stringify(r))].join("\n");
    const view = runView(readRunLog(`${text}\n`));
    expect(view.steps.map((s) => s.removed)).toEqual([
      undefined,
      [{ tool: "spend", cause: { reason: "budget", by: "c1", byStep: 1 } }],
      [],
      [{ tool: "spend", cause: { reason: "restart" } }],
    ]);
  });
});
