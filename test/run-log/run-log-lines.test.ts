// The records every step writes are made as JSON text directly: each line is what JSON.stringify makes of
// the record (run-log-format.ts), and a value JSON cannot hold costs that value, not the record.
import { describe, expect, it } from "vitest";
import { callLine, responseLine, stepLine } from "../../src/run-log/run-log-lines.js";
import type { CallRecord, ResponseRecord, StepRecord } from "../../src/run-log/run-log-format.js";

const usage = { inputTokens: 120, outputTokens: 7, cachedInputTokens: 100, reasoningTokens: 0 };
const awkward = 'quotes " and \\ and\nnew lines, ünïcödé, 🎉, a lone \ud800 surrogate';

describe("each line is JSON.stringify of its record", () => {
  it("step", () => {
    const record: StepRecord = { type: "step", step: 3, iteration: 2, ms: 41, count: 10 };
    expect(stepLine(3, 2, 41, 10)).toBe(JSON.stringify(record));
  });

  interface Response {
    modelId?: string;
    responseModelId?: string;
    cost?: number;
    text?: string;
    calls: string[];
  }
  it.each<[string, Response]>([
    [
      "with everything",
      {
        modelId: "gpt-x",
        responseModelId: "gpt-x-2026-01-01",
        cost: 0.000123,
        text: awkward,
        calls: ["a", "b"],
      },
    ],
    ["without a model id, cost or text, and no calls", { calls: [] }],
    ["with an empty text", { text: "", calls: ["a"] }],
  ])("response %s", (_case, { modelId, responseModelId, cost, text, calls }) => {
    const record: ResponseRecord = {
      type: "response",
      step: 4,
      ms: 50,
      durationMs: 13,
      ...(modelId === undefined ? {} : { modelId }),
      ...(responseModelId === undefined ? {} : { responseModelId }),
      usage,
      ...(cost === undefined ? {} : { cost }),
      ...(text === undefined ? {} : { text }),
      calls: calls.map((tool) => ({ tool })),
    };
    const line = responseLine({
      step: 4,
      ms: 50,
      durationMs: 12.6,
      modelId,
      responseModelId,
      usage,
      cost,
      text,
      calls: calls.map((toolName) => ({ toolName })),
      maxChars: 1_000_000,
    });
    expect(line).toBe(JSON.stringify(record));
  });

  const provider = { providerClass: "Customer", id: "c1", idType: "string" } as const;
  it.each([
    ["that ran, with content, media and a provider", true, true],
    ["that ran, without content", true, false],
    ["that failed, with content", false, true],
    ["that failed, without content", false, false],
  ])("call %s", (_case, ok, content) => {
    const input = { query: awkward, nested: [1, { deep: null }] };
    const media = [{ type: "image", mediaType: "image/png", file: "r.media/1.png" }] as const;
    const record: CallRecord = {
      type: "call",
      step: 2,
      ms: 30,
      id: "call_1",
      tool: "search",
      ok,
      ...(ok ? { durationMs: 3 } : { reason: "threw" }),
      ...(content ? { input, result: awkward } : {}),
      // What the server threw, as its name and message: with the contents only.
      ...(content && !ok ? { cause: `TypeError: ${awkward}` } : {}),
      ...(ok ? { media, provider } : {}),
    };
    const line = callLine({
      step: 2,
      ms: 30,
      id: "call_1",
      tool: "search",
      ok,
      durationMs: ok ? 2.5 : undefined,
      reason: ok ? undefined : "threw",
      content,
      input,
      result: awkward,
      cause: ok ? undefined : new TypeError(awkward),
      media: ok ? media : undefined,
      provider: ok ? provider : undefined,
      maxChars: 1_000_000,
    });
    expect(line).toBe(JSON.stringify(record));
  });
});

describe("a failed call's cause names what it wraps", () => {
  const causeOf = (cause: unknown) =>
    (
      JSON.parse(
        callLine({
          step: 1,
          ms: 1,
          id: "c",
          tool: "t",
          ok: false,
          durationMs: undefined,
          reason: "threw",
          content: true,
          input: {},
          result: "r",
          cause,
          media: undefined,
          provider: undefined,
          maxChars: 1_000_000,
        }),
      ) as CallRecord
    ).cause;

  it("each error it wraps with its name and message, one after the other", () => {
    const rule = new Error("the approval rule failed", { cause: new TypeError("x is not a function") });
    expect(causeOf(rule)).toBe("Error: the approval rule failed; caused by TypeError: x is not a function");
  });

  it("what is no error as it would be shown, and a cycle once", () => {
    const looped = new RangeError("outer", { cause: { code: 42 } });
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    Object.assign(a, { cause: b });
    expect([causeOf(looped), causeOf(new Error("e", { cause: "timeout" })), causeOf(a)]).toEqual([
      'RangeError: outer; caused by {"code":42}',
      "Error: e; caused by timeout",
      "Error: a; caused by Error: b",
    ]);
  });

  it("is capped as a result is, and a long message does not cut off what it wraps", () => {
    const cause = causeOf(new Error("x".repeat(20_000), { cause: new TypeError("y".repeat(20_000)) }))!;
    expect(cause.replace(/\n\[truncated[^\]]*\]/g, "")).toMatch(
      /^Error: x{7900,8000}; caused by TypeError: y{7900,8000}$/,
    );
  });
});

describe("what JSON cannot hold", () => {
  const call = (input: unknown, durationMs = 1) =>
    JSON.parse(
      callLine({
        step: 1,
        ms: 1,
        id: "c",
        tool: "t",
        ok: true,
        durationMs,
        reason: undefined,
        content: true,
        input,
        result: "r",
        cause: undefined,
        media: undefined,
        provider: undefined,
        maxChars: 1_000_000,
      }),
    ) as CallRecord;

  it("a bigint is written as its digits", () => {
    expect(call({ amount: 12345678901234567890n }).input).toEqual({ amount: "12345678901234567890" });
  });

  it("a cycle costs the input, written as why, and the rest of the record is kept", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const record = call(cyclic);
    expect(record.input).toMatch(/^not logged: .*circular/i);
    expect([record.tool, record.ok, record.result]).toEqual(["t", true, "r"]);
  });

  it("an input JSON leaves out is left out, and a duration that is not a number is null", () => {
    const record = call(undefined, Number.NaN);
    expect("input" in record).toBe(false);
    expect(record.durationMs).toBeNull();
  });
});

describe("a value longer than maxValueChars is cut, and its record says how long it was", () => {
  const line = (input: unknown, result: string, cause?: unknown, maxChars = 10) =>
    callLine({
      step: 1,
      ms: 1,
      id: "c",
      tool: "t",
      ok: cause === undefined,
      durationMs: undefined,
      reason: cause === undefined ? undefined : "threw",
      content: true,
      input,
      result,
      cause,
      media: undefined,
      provider: undefined,
      maxChars,
    });

  it("a call's input (its JSON text), result and cause: each the first characters, a note, and the record's cut", () => {
    const text = line({ query: "x".repeat(40) }, "r".repeat(25), new Error("e".repeat(30)));
    const record = JSON.parse(text) as CallRecord;
    expect(record.input).toBe(`{"query":"\n[cut: the run log keeps the first 10 of 52 characters]`);
    expect(record.result).toBe(`${"r".repeat(10)}\n[cut: the run log keeps the first 10 of 25 characters]`);
    expect(record.cause).toBe(`Error: eee\n[cut: the run log keeps the first 10 of 37 characters]`);
    expect(record.cut).toEqual({
      input: { length: 52, kept: 10 },
      result: { length: 25, kept: 10 },
      cause: { length: 37, kept: 10 },
    });
    // Made directly as text, still JSON.stringify of its record (`cut` last).
    expect(text).toBe(JSON.stringify(record));
  });

  it("a value within the limit is written as it is, with no cut; one at the limit too", () => {
    const record = JSON.parse(line({ q: "ab" }, "r".repeat(10))) as CallRecord; // {"q":"ab"}: 10
    expect([record.input, record.result, "cut" in record]).toEqual([{ q: "ab" }, "r".repeat(10), false]);
  });

  it("never splits a character written as two units (an emoji) in half", () => {
    const record = JSON.parse(line({}, `${"r".repeat(9)}🎉🎉`)) as CallRecord;
    expect(record.result!.startsWith(`${"r".repeat(9)}\n[cut: the run log keeps the first 9 of 13`)).toBe(
      true,
    );
    expect(record.cut).toEqual({ result: { length: 13, kept: 9 } });
  });

  it("the model's text", () => {
    const text = responseLine({
      step: 1,
      ms: 1,
      durationMs: 1,
      modelId: undefined,
      responseModelId: undefined,
      usage,
      cost: undefined,
      text: "t".repeat(12),
      calls: [{ toolName: "a" }],
      maxChars: 5,
    });
    const record = JSON.parse(text) as ResponseRecord;
    expect([record.text, record.cut, record.calls]).toEqual([
      `ttttt\n[cut: the run log keeps the first 5 of 12 characters]`,
      { text: { length: 12, kept: 5 } },
      [{ tool: "a" }],
    ]);
    expect(text).toBe(JSON.stringify(record));
  });
});
