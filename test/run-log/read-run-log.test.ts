// Reading a damaged run log: what could be read is kept, and each skipped line or file is named.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { readRunLog, runView } from "entity-tools";
import { SHAPES } from "../../src/run-log/read-run-log.js";
import { RunTally } from "../../src/run-log/run-tally.js";
import { runHeaderLine } from "../support/run-log-header.js";

const header = runHeaderLine();
const lines = (...records: object[]) => records.map((r) => JSON.stringify(r)).join("\n");
const step = (n: number, change: object) => ({
  type: "step",
  step: n,
  iteration: n,
  ms: n,
  count: 0,
  ...change,
});

describe("readRunLog", () => {
  it("a crash's cut-short last line, a corrupt line and an unknown record are skipped and named; the rest is read", () => {
    const text = `${header}\n${lines(step(1, { tools: ["a"] }))}\n{"type":"step",,\n${lines({ type: "gossip", step: 1 })}\n${lines(step(2, { added: ["b"] }))}\n{"type":"call","step":2,"id":"c`;
    const read = readRunLog(text);
    expect(read.header?.id).toBe("r");
    expect(read.records.map((r) => r.type)).toEqual(["step", "step"]);
    expect(read.problems).toEqual([
      { line: 3, message: "line 3 is not JSON: skipped" },
      { line: 4, message: 'line 4: unknown record type "gossip": skipped' },
      { line: 6, message: "line 6 is cut short (the process stopped while writing it): skipped" },
    ]);
  });

  it("a record without a field the view reads (edited by hand) is skipped and named; the run is still viewed", () => {
    const provider = { providerClass: "Customer", id: "c1", idType: "string" };
    const text = lines(
      step(1, { tools: ["a"] }),
      { type: "response", step: 1, ms: 1, durationMs: 1, usage: null, calls: [] },
      { type: "discovered", step: 1, provider, definitionTokens: 1 },
      { type: "added", step: 1, byTool: "a" },
      { type: "removed", step: 1, reason: "budget" },
      step(2, { added: ["b"] }),
      { type: "end", ms: 2, status: "done", totalIterations: 2 },
    );
    const read = readRunLog(`${header}\n${text}\n`);
    expect(read.problems.map((p) => p.message)).toEqual([
      "line 3: a response record with another shape of its usage: skipped",
      "line 4: a discovered record without its tools: skipped",
      "line 5: an added record without its tools: skipped",
      "line 6: a removed record without its tools: skipped",
      "line 8: an end record without its usage: skipped",
    ]);
    expect(runView(read).steps.map((s) => s.step)).toEqual([1, 2]);
  });

  it("a record whose field has another shape than the view reads is skipped and named", () => {
    const provider = { providerClass: "Customer", id: "c1", idType: "string" };
    const call = { type: "call", step: 1, ms: 1, id: "c", tool: "a", ok: true };
    const text = lines(
      step(1, { tools: ["a"] }),
      { ...call, media: "x" },
      { ...call, result: { text: "hi" } },
      { ...call, media: [null] },
      { type: "discovered", step: 1, provider: null, tools: ["b"], definitionTokens: 1 },
      { type: "costs", step: 1, perProvider: [null] },
      { type: "response", step: 1, ms: 1, durationMs: 1, usage: {}, calls: [] },
      {
        type: "response",
        step: 1,
        ms: 1,
        durationMs: 1,
        usage: { inputTokens: 1, outputTokens: 1 },
        text: {},
      },
      { ...call, provider },
    );
    const read = readRunLog(`${header}\n${text}\n`);
    expect(read.problems.map((p) => p.message)).toEqual([
      "line 3: a call record with another shape of its media: skipped",
      "line 4: a call record with another shape of its result: skipped",
      "line 5: a call record with another shape of its media: skipped",
      "line 6: a discovered record with another shape of its provider: skipped",
      "line 7: a costs record with another shape of its perProvider: skipped",
      "line 8: a response record with another shape of its usage: skipped",
      "line 9: a response record with another shape of its text: skipped",
    ]);
    expect(read.records.map((r) => r.type)).toEqual(["step", "call"]);
  });

  it("a usage whose cached or reasoning count is not a number is skipped, by the reader and by the run list's figures so far alike", () => {
    const usage = { inputTokens: 100, outputTokens: 5, cachedInputTokens: 50, reasoningTokens: 0 };
    const response = (u: object) => ({
      type: "response",
      step: 1,
      ms: 1,
      durationMs: 1,
      usage: u,
      calls: [],
    });
    const text = lines(
      step(1, { tools: ["a"] }),
      response(usage),
      response({ ...usage, cachedInputTokens: "5" }),
      response({ ...usage, reasoningTokens: null }),
    );
    const read = readRunLog(`${header}\n${text}\n`);
    expect(read.problems.map((p) => p.message)).toEqual([
      "line 4: a response record with another shape of its usage: skipped",
      "line 5: a response record with another shape of its usage: skipped",
    ]);
    expect(runView(read).steps[0]!.response!.usage).toEqual(usage);
    const tally = new RunTally();
    tally.addLines(`${header}\n${text}\n`);
    expect(tally.soFar).toEqual({ steps: 1, usage });
  });

  it("a costs record written before identities is read with them made from the class and id; one without its figures is skipped", () => {
    const older = {
      providerClass: "Customer",
      instanceId: "c1",
      cost: 0.5,
      calls: 1,
      definitionTokens: 10,
      resultTokens: 5,
    };
    const text = lines(
      step(1, { tools: ["a"] }),
      { type: "costs", step: 1, perProvider: [{ providerClass: "Customer", instanceId: "c2" }] },
      { type: "costs", step: 1, perProvider: [older] },
    );
    const read = readRunLog(`${header}\n${text}\n`);
    expect(read.problems.map((p) => p.message)).toEqual([
      "line 3: a costs record with another shape of its perProvider: skipped",
    ]);
    expect(runView(read).costs?.perProvider).toEqual([
      { ...older, identity: { providerClass: "Customer", id: "c1", idType: "string" } },
    ]);
  });

  it("the shapes it checks are the JSON Schema's (docs/run-log.schema.json): the same types, needed where required", () => {
    const schema = JSON.parse(readFileSync("docs/run-log.schema.json", "utf8")) as {
      oneOf: { $ref: string }[];
      definitions: Record<
        string,
        { required: string[]; properties: Record<string, Record<string, unknown>> }
      >;
    };
    const byType = new Map(
      schema.oneOf.map(({ $ref }) => {
        const definition = schema.definitions[$ref.split("/").at(-1)!]!;
        return [definition.properties["type"]!["const"] as string, definition] as const;
      }),
    );
    const KINDS: Record<string, string> = {
      string: "string",
      number: "number",
      boolean: "boolean",
      object: "object",
      usage: "object",
      objects: "array",
      names: "array",
    };
    for (const [type, fields] of Object.entries(SHAPES))
      for (const [field, shape] of Object.entries(fields)) {
        const definition = byType.get(type)!;
        const property = definition.properties[field]!;
        const ref = property["$ref"] as string | undefined;
        const target = ref ? schema.definitions[ref.split("/").at(-1)!]! : property;
        const kind = (target as { type?: string }).type ?? (ref?.endsWith("identity") ? "object" : undefined);
        expect(kind, `${type}.${field}`).toBe(KINDS[shape.replace("!", "")]);
        if (shape.endsWith("!")) expect(definition.required, `${type}.${field}`).toContain(field);
      }
  });

  it("a file of another format version is skipped whole, saying which version it is", () => {
    const read = readRunLog(
      `${header.replace('"version":1', '"version":2')}\n${lines(step(1, { tools: [] }))}\n`,
    );
    expect(read.records).toEqual([]);
    expect(read.problems).toEqual([
      { message: "the file is run log format version 2; this viewer reads version 1: skipped" },
    ]);
  });

  it("a lost step line leaves later tool sets unknown until the next whole list, never wrong", () => {
    const text = [
      header,
      lines(step(1, { tools: ["a"] }), step(2, { added: ["b"] })),
      "garbage",
      lines(step(4, { removed: ["a"] }), step(5, { tools: ["b", "c"] })),
    ].join("\n");
    const view = runView(readRunLog(text));
    expect(view.toolsAt(2)).toEqual(["a", "b"]);
    expect(view.toolsAt(4)).toBeUndefined();
    expect(view.steps.find((s) => s.step === 4)!.added).toBeUndefined();
    expect(view.toolsAt(5)).toEqual(["b", "c"]);
  });
});
