// One huge value (a tool argument larger than the run's whole size limit, a long result, a long prompt) is
// cut to `maxValueChars` in its own record, which says how long it was: every later step of the run is
// still in the log. Files written before values were cut read as before.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  defineTool,
  InvalidSettingError,
  readRunLog,
  runView,
  type CallRecord,
  type RunLogRead,
} from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { withCutValues } from "../../src/run-log/cut-value.js";
import { runLogTarget } from "../../src/run-log/run-log.js";
import { runHeaderLine } from "../support/run-log-header.js";

const root = mkdtempSync(path.join(tmpdir(), "run-log-cut-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Steps with one call of `store` each. */
const store = defineTool({
  name: "store",
  description: "Stores a document",
  inputSchema: { type: "object", properties: { doc: { type: "string" } }, required: ["doc"] },
  execute: (input: { doc: string }) => `stored ${input.doc.length} characters`,
});
const report = defineTool({
  name: "report",
  description: "A long report",
  execute: () => "y".repeat(100_000),
});

describe("a run with one argument larger than the run's size limit, and steps after it", () => {
  const dir = path.join(root, "huge");
  const doc = "d".repeat(3_000_000); // more than the whole file may hold (2 MB here)
  const prompt = `Store this: ${"p".repeat(100_000)}`;
  let text = "";
  let read: RunLogRead;
  beforeAll(async () => {
    const fake = new FakePromptRunner();
    fake.callTool("store", { doc }).callTool("report");
    for (let i = 1; i <= 3; i++) fake.callTool("store", { doc: `small ${i}` });
    fake.respondWithText("done");
    // 2 MB a run: each value is kept up to a fiftieth of it, 40 000 characters.
    const runner = fake.withTools(store, report).withMaxResultChars(200_000).withRunLog(dir, {
      maxFileBytes: 2_000_000,
    });
    expect((await runner.run(prompt)).status).toBe("completed");
    const [file] = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
    text = readFileSync(path.join(dir, file!), "utf8");
    read = readRunLog(text);
  });

  it("keeps every step to the run's end: the file is not cut", () => {
    expect(read.problems).toEqual([]);
    expect(read.records.filter((r) => r.type === "cut")).toEqual([]);
    const view = runView(read);
    expect(view.steps.map((s) => [s.step, s.calls.map((c) => c.tool)])).toEqual([
      [1, ["store"]],
      [2, ["report"]],
      [3, ["store"]],
      [4, ["store"]],
      [5, ["store"]],
      [6, []],
    ]);
    expect(view.end).toMatchObject({ status: "completed", steps: 6 });
    expect(Buffer.byteLength(text)).toBeLessThan(2_000_000);
  });

  it("the huge argument is its JSON's first 40 000 characters, a note, and the record's cut with its whole length", () => {
    const calls = read.records.filter((r): r is CallRecord => r.type === "call");
    const length = JSON.stringify({ doc }).length;
    expect(calls[0]!.cut).toEqual({ input: { length, kept: 40_000 } });
    expect(calls[0]!.input).toBe(
      `{"doc":"${"d".repeat(40_000 - 8)}\n[cut: the run log keeps the first 40000 of ${length} characters]`,
    );
    // The result the model read, 100 000 characters, is cut the same way; the small ones are whole.
    expect(calls[1]!.cut).toEqual({ result: { length: 100_000, kept: 40_000 } });
    expect(calls.slice(2).map((c) => [c.input, c.result, c.cut])).toEqual([
      [{ doc: "small 1" }, "stored 7 characters", undefined],
      [{ doc: "small 2" }, "stored 7 characters", undefined],
      [{ doc: "small 3" }, "stored 7 characters", undefined],
    ]);
  });

  it("the long prompt is cut in the header, which says so", () => {
    const header = read.header!;
    expect(header.cut?.["prompt"]?.kept).toBe(40_000);
    expect(header.cut?.["prompt"]?.length).toBeGreaterThan(100_000);
    expect(String(header.prompt)).toMatch(
      /Store this: p+\n\[cut: the run log keeps the first 40000 of \d+ characters\]$/,
    );
  });

  it("every line is a record of the shipped JSON Schema", () => {
    const schema = JSON.parse(readFileSync("docs/run-log.schema.json", "utf8")) as object;
    const valid = addFormats.default(new Ajv({ allowUnionTypes: true })).compile(schema);
    for (const line of text.trimEnd().split("\n"))
      expect(valid(JSON.parse(line)), line.slice(0, 80)).toBe(true);
  });
});

describe("maxValueChars", () => {
  it("is a fiftieth of maxFileBytes by default (1 000 000 at its default), and must be a positive whole number", () => {
    const dir = path.join(root, "options");
    expect(runLogTarget(dir).maxValueChars).toBe(1_000_000);
    expect(runLogTarget(dir, { maxFileBytes: 2_000_000 }).maxValueChars).toBe(40_000);
    expect(runLogTarget(dir, { maxValueChars: 123 }).maxValueChars).toBe(123);
    expect(() => new FakePromptRunner().withRunLog(dir, { maxValueChars: 0 })).toThrow(InvalidSettingError);
  });

  it("cuts an approval's input as its call's: its JSON's first characters, a note, and the record's cut", async () => {
    const dir = path.join(root, "approval");
    const refund = defineTool({
      name: "refund",
      description: "Refunds an order",
      inputSchema: { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
      needsApproval: true,
      execute: () => "refunded",
    });
    const runner = new FakePromptRunner()
      .callTool("refund", { note: "n".repeat(100) })
      .withTools(refund)
      .withRunLog(dir, { maxValueChars: 30 });
    expect((await runner.run("Refund it")).status).toBe("awaiting-approval");
    const [file] = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
    const asked = readRunLog(readFileSync(path.join(dir, file!), "utf8")).records.find(
      (r) => r.type === "approval-asked",
    );
    // {"note":"nnn…"}: 111 characters.
    expect(asked).toEqual({
      type: "approval-asked",
      step: 1,
      id: expect.any(String) as string,
      tool: "refund",
      input: `{"note":"${"n".repeat(21)}\n[cut: the run log keeps the first 30 of 111 characters]`,
      cut: { input: { length: 111, kept: 30 } },
    });
  });

  it("cuts the other records' content too: a denial's reason, a failed run's message, what an unrestored provider's resolver threw", () => {
    const decided = {
      type: "approval-decided",
      step: 1,
      id: "a",
      tool: "t",
      approved: false,
      reason: "short",
    };
    expect(withCutValues(decided, 8)).toBe(decided);
    const end = withCutValues({ type: "end", error: { name: "Error", message: "m".repeat(9) } }, 8);
    expect(end).toMatchObject({
      error: { name: "Error", message: "mmmmmmmm\n[cut: the run log keeps the first 8 of 9 characters]" },
      cut: { "error.message": { length: 9, kept: 8 } },
    });
    const removed = { type: "removed", step: 0, tools: ["t"], reason: "unrestored", cause: "c".repeat(9) };
    expect(withCutValues(removed, 8)).toMatchObject({
      cause: "cccccccc\n[cut: the run log keeps the first 8 of 9 characters]",
      cut: { cause: { length: 9, kept: 8 } },
    });
  });
});

describe("files written before values were cut", () => {
  const lines = (...records: object[]) =>
    [runHeaderLine("old", "2026-01-01T00:00:00.000Z"), ...records.map((r) => JSON.stringify(r))].join("\n") +
    "\n";
  const call = {
    type: "call",
    step: 1,
    ms: 1,
    id: "c",
    tool: "t",
    ok: true,
    input: "a string input",
    result: "r",
  };

  it("read as before: no cut", () => {
    const read = readRunLog(
      lines({ type: "step", step: 1, iteration: 1, ms: 0, count: 1, tools: ["t"] }, call),
    );
    expect(read.problems).toEqual([]);
    expect(read.records[1]).toEqual(call);
  });

  it("a cut that is not an object (a line edited by hand) is skipped and named", () => {
    const read = readRunLog(lines({ ...call, cut: "yes" }));
    expect(read.problems).toEqual([
      { line: 2, message: "line 2: a call record with another shape of its cut: skipped" },
    ]);
  });
});
