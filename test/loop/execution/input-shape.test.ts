import { describe, expect, it } from "vitest";
import { inputShapeProblem, MAX_INPUT_DEPTH } from "../../../src/loop/execution/input-shape.js";

const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

describe("inputShapeProblem", () => {
  it("accepts ordinary input", () => {
    expect(inputShapeProblem({ a: [1, { b: "x" }], c: null })).toBeUndefined();
    expect(inputShapeProblem(nested(MAX_INPUT_DEPTH - 1))).toBeUndefined();
  });

  it("names prototype keys at any depth, non-finite numbers, and nesting past the limit", () => {
    expect(inputShapeProblem(JSON.parse('{"a":{"__proto__":1}}'))).toBe(
      'the key "a.__proto__" is not allowed',
    );
    expect(inputShapeProblem({ constructor: 1 })).toBe('the key "constructor" is not allowed');
    expect(inputShapeProblem({ list: [1, Infinity] })).toBe('the value at "list.1" is not a finite number');
    expect(inputShapeProblem(nested(MAX_INPUT_DEPTH + 1))).toBe(
      `the arguments are nested more than ${MAX_INPUT_DEPTH} levels deep`,
    );
  });

  it("does not overflow the stack on 100 000 levels", () => {
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(inputShapeProblem(deep)).toMatch(/nested more than/);
  });
});
