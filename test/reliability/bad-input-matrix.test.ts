// The reliability matrix (docs/reliability.md): every way a run can go wrong, through the real loop.
// For each case: no crash, every message kept in the history, and a message that names the cause,
// either in what the model reads back or in the error the caller gets.
import { readFileSync } from "node:fs";
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import {
  MaxIterationsExceededError,
  OutputValidationError,
  StrategyError,
  ToolLoopError,
  ToolNotFoundError,
  type ToolLoopResult,
} from "entity-tools";
import { call, text, type MockTurn } from "../support/mock-model.js";
import { LOOSE_CASE_IDS, matrixRunner } from "./matrix-support.js";

interface Case {
  readonly id: string;
  readonly name: string;
  readonly turns: MockTurn[];
  /** What the model must have read back (tool results or error results), in order of appearance. */
  readonly seen?: (string | RegExp)[];
  /** The error the caller must get. */
  readonly error?: { type: new (...args: never[]) => Error; message: RegExp };
  readonly output?: boolean;
}

const raw = (toolName: string, input: string): MockTurn => ({ toolCalls: [{ toolName, input }] });
/** A turn calling every offered tool whose generated name starts with `prefix` (ids are hashed). */
const callOffered =
  (prefix: string): MockTurn =>
  (options) => ({
    toolCalls: (options.tools ?? [])
      .map((t) => t.name)
      .filter((n) => n.startsWith(prefix))
      .map((toolName) => ({ toolName })),
  });

export const CASES: Case[] = [
  {
    id: "R01",
    name: "arguments that are not JSON",
    turns: [raw("echo", "{message: hi"), text("ok")],
    seen: [
      'Invalid arguments for "echo": the arguments are not valid JSON. Send a JSON object keyed by parameter name.',
    ],
  },
  {
    id: "R02",
    name: "a JSON array instead of an object",
    turns: [raw("echo", '["hi"]'), text("ok")],
    seen: ['Invalid arguments for "echo": expected a JSON object keyed by parameter name, got an array.'],
  },
  {
    id: "R03",
    name: "a JSON string instead of an object",
    turns: [raw("echo", '"hi"'), text("ok")],
    seen: ['Invalid arguments for "echo": expected a JSON object keyed by parameter name, got a string.'],
  },
  {
    id: "R04",
    name: "wrong types",
    turns: [call("echo", { message: 5, times: "twice" }), text("ok")],
    seen: ['Invalid arguments for "echo": field "message" must be string; field "times" must be integer.'],
  },
  {
    id: "R05",
    name: "a missing required field",
    turns: [call("echo", { times: 2 }), text("ok")],
    seen: ['Invalid arguments for "echo": missing required field "message".'],
  },
  {
    id: "R06",
    name: "an unexpected extra field",
    turns: [call("echo", { message: "hi", loud: true }), text("ok")],
    seen: ['Invalid arguments for "echo": unexpected field "loud".'],
  },
  {
    id: "R07",
    name: "a __proto__ key",
    turns: [raw("echo", '{"message":"hi","__proto__":{"polluted":true}}'), text("ok")],
    seen: ['Invalid arguments for "echo": the key "__proto__" is not allowed.'],
  },
  {
    id: "R08",
    name: "a constructor key",
    turns: [call("echo", { message: "hi", constructor: { prototype: {} } }), text("ok")],
    seen: ['Invalid arguments for "echo": the key "constructor" is not allowed.'],
  },
  {
    id: "R09",
    name: "a nested prototype key",
    turns: [call("items", { ids: [{ prototype: { x: 1 } }] }), text("ok")],
    seen: ['Invalid arguments for "items": the key "ids.0.prototype" is not allowed.'],
  },
  {
    id: "R10",
    name: "an unknown tool",
    turns: [call("ecko", { message: "hi" }), text("ok")],
    seen: [/^Unknown tool "ecko"\. Did you mean: echo\? Available tools: echo, items,/],
  },
  {
    id: "R11",
    name: "a hallucinated entity tool for an id never discovered",
    turns: [call("items", { ids: ["a1"] }), call("item_zz9_describe"), text("ok")],
    seen: ['[{"id":"a1"}]', /^Unknown tool "item_zz9_describe"\. Did you mean: item_a1_describe\?/],
  },
  {
    id: "R12",
    name: "a name that maps to a method without @LlmTool",
    turns: [call("notATool"), text("ok")],
    seen: [/^Unknown tool "notATool"\./],
  },
  {
    id: "R13",
    name: "a name that maps to a getter",
    turns: [call("computed"), text("ok")],
    seen: [/^Unknown tool "computed"\./],
  },
  {
    id: "R14",
    name: "the name constructor",
    turns: [call("constructor"), text("ok")],
    seen: [/^Unknown tool "constructor"\./],
  },
  {
    id: "R15",
    name: "the name toString",
    turns: [call("toString"), text("ok")],
    seen: [/^Unknown tool "toString"\./],
  },
  {
    id: "R16",
    name: "a tool that throws a string",
    turns: [call("throwString"), text("ok")],
    seen: ['Tool "throwString" failed: plain string failure'],
  },
  {
    id: "R17",
    name: "a tool that throws a plain object",
    turns: [call("throwObject"), text("ok")],
    seen: ['Tool "throwObject" failed: {"code":42,"detail":"object failure"}'],
  },
  {
    id: "R18",
    name: "a tool that never resolves (per-tool timeout)",
    turns: [call("hang"), text("ok")],
    seen: ['Tool "hang" did not finish within 100 ms'],
  },
  {
    id: "R19",
    name: "a tool returning a cyclic object",
    turns: [call("cyclic"), text("ok")],
    seen: ['{"name":"cycle","self":"[circular]"}'],
  },
  {
    id: "R20",
    name: "a tool returning a 10 MB string",
    turns: [call("huge"), text("ok")],
    seen: [/^x{16000}\n\[truncated: the result was 10485760 characters; the first 16000 are shown\]$/],
  },
  {
    id: "R21",
    name: "a tool returning undefined",
    turns: [call("nothing"), text("ok")],
    seen: ["(no result: the tool completed and returned nothing)"],
  },
  {
    id: "R22",
    name: "a tool returning a Promise that rejects",
    turns: [call("rejects"), text("ok")],
    seen: ['Tool "rejects" failed: async failure'],
  },
  {
    id: "R23",
    name: "a tool returning bigint, Date, Set and Map",
    turns: [call("exotic"), text("ok")],
    seen: ['{"big":"100000000000000000000","when":"2026-01-01T00:00:00.000Z","tags":["a"],"map":{"k":1}}'],
  },
  {
    id: "R24",
    name: "a provider with a null id",
    turns: [call("items", { ids: [null, "ok1"] }), call("item_ok1_describe"), text("ok")],
    seen: [
      /\[Cannot expose tools of Item: its id property "id" is null; no tools were added for it\.\]$/,
      "item ok1",
    ],
  },
  {
    id: "R25",
    name: "an id with spaces",
    turns: [call("items", { ids: ["a b"] }), callOffered("item_a_b_"), text("ok")],
    seen: [/"id":"a b"/, "item a b"],
  },
  {
    id: "R26",
    name: "a unicode id",
    turns: [call("items", { ids: ["ünï-😀"] }), callOffered("item_"), text("ok")],
    seen: [/ünï-😀/, "item ünï-😀"],
  },
  {
    id: "R27",
    name: "a 100-character id",
    turns: [call("items", { ids: ["x".repeat(100)] }), callOffered("item_"), text("ok")],
    seen: [/x{100}/, `item ${"x".repeat(100)}`],
  },
  {
    id: "R28",
    name: "two ids that sanitize to the same text",
    turns: [call("items", { ids: ["a.b", "a b"] }), callOffered("item_a_b_"), text("ok")],
    seen: [/"a\.b".*"a b"/, "item a.b", "item a b"],
  },
  {
    id: "R29",
    name: "a model that keeps calling unknown tools",
    turns: [call("nope"), call("nope"), call("nope"), text("never")],
    error: {
      type: ToolNotFoundError,
      message: /^The model called unknown tools 3 times in a row, last "nope"; available: echo, items,/,
    },
  },
  {
    id: "R30",
    name: "a model that never stops calling tools",
    turns: Array.from({ length: 8 }, () => call("echo", { message: "again" })),
    error: { type: MaxIterationsExceededError, message: /^The model did not finish within 6 iterations/ },
  },
  {
    id: "R31",
    name: "output that never validates",
    turns: [text("not json"), text("[1,2]"), text('{"answer": 1}')],
    output: true,
    error: {
      type: OutputValidationError,
      message: /after 2 repair attempt\(s\): field "answer" must be string/,
    },
  },
  {
    id: "R32",
    name: "an empty model response",
    turns: [text(""), text(""), text("")],
    error: { type: OutputValidationError, message: /after 2 repair attempt\(s\): the answer was empty/ },
  },
];

const textsOf = (history: readonly ModelMessage[]) =>
  history.flatMap((m) =>
    m.role === "tool"
      ? m.content.flatMap((p) =>
          p.type === "tool-result" && "value" in p.output ? [String(p.output.value)] : [],
        )
      : [],
  );

const STARTED_NOT_FINISHED =
  "Not finished: the run ended after this call started. It may have run; its result was not kept.";

describe("reliability matrix", () => {
  it.each(CASES.map((c) => [`${c.id} ${c.name}`, c] as const))("%s", async (_label, c) => {
    const pollutedBefore = ({} as Record<string, unknown>).polluted;
    const { model, runner } = matrixRunner(...c.turns);
    const outcome = await runner
      .run<unknown>(
        "go",
        c.output
          ? { output: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] } }
          : {},
      )
      .then((result: ToolLoopResult<unknown>) => ({ result, error: undefined }))
      .catch((error: unknown) => ({ result: undefined, error }));

    if (c.error) {
      expect(outcome.error).toBeInstanceOf(c.error.type);
      expect((outcome.error as Error).message).toMatch(c.error.message);
    } else {
      expect(outcome.error).toBeUndefined();
    }
    const history =
      outcome.result?.conversationHistory ?? (outcome.error as ToolLoopError).conversationHistory;
    // Every model turn and every result is kept, and every call got its result.
    expect(history.filter((m) => m.role === "assistant")).toHaveLength(model.doGenerateCalls.length);
    const callIds = history.flatMap((m) =>
      m.role === "assistant" && Array.isArray(m.content)
        ? m.content.flatMap((p) => (p.type === "tool-call" ? [p.toolCallId] : []))
        : [],
    );
    const resultIds = history.flatMap((m) =>
      m.role === "tool" ? m.content.map((p) => (p as { toolCallId: string }).toolCallId) : [],
    );
    expect(resultIds).toEqual(callIds);
    const seen = textsOf(history);
    let from = 0;
    for (const expected of c.seen ?? []) {
      const index = seen.findIndex(
        (t, i) => i >= from && (typeof expected === "string" ? t === expected : expected.test(t)),
      );
      expect(
        index,
        `expected the model to read ${String(expected)} in ${JSON.stringify(seen).slice(0, 400)}`,
      ).toBeGreaterThanOrEqual(0);
      from = index + 1;
    }
    expect(({} as Record<string, unknown>).polluted).toBe(pollutedBefore);
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("R33 a strategy that throws ends the run with StrategyError, keeping the conversation", async () => {
    const { runner } = matrixRunner(call("echo", { message: "hi" }), text("never"));
    const error = await runner
      .withInjectionStrategy({
        evaluateToolResult: () => {
          throw new Error("strategy bug");
        },
      })
      .run("go")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrategyError);
    expect((error as Error).message).toBe('An injection strategy failed after "echo": strategy bug');
    expect((error as StrategyError).conversationHistory.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
    ]);
    // The call ran (the strategy failed after it): its result must not say it did not, or a resumed
    // run's model would make it again.
    expect((error as StrategyError).conversationHistory.at(-1)!.content).toMatchObject([
      { toolName: "echo", output: { type: "error-text", value: STARTED_NOT_FINISHED } },
    ]);
  });

  it("docs/reliability.md states the behaviour of every case", () => {
    const doc = readFileSync("docs/reliability.md", "utf8");
    for (const id of [...CASES.map((c) => c.id), ...LOOSE_CASE_IDS]) {
      expect(doc, `${id} missing from docs/reliability.md`).toContain(`| ${id} |`);
    }
  });
});
