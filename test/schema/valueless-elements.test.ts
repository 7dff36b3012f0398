// G34 (docs/reliability.md, hardening round 15): `never` or `undefined` as an array's or a tuple's element
// or an index signature's value, `never[]`, `undefined[]`, `Record<string, never>` (the "empty object"
// idiom), `{ [key: string]: undefined }`, is refused as a parameter or a required field so typed is (G31),
// naming the path to it (G33): such a parameter can only be `[]` or `{}`, which carries nothing the method
// can use. Before: typescript-json-schema stopped with its own `Unsupported type: never` or `Not
// supported: root type undefined`, naming nothing. `undefined` beside other members still generates.
import { describe, expect, it } from "vitest";
import { holdsNoValue, oneToolSchemas, outputClass } from "../support/one-tool-project.js";

describe("G34 never or undefined as an element or an index signature's value", () => {
  it.each([
    ["x: never[]", "x[]", "never"],
    ["x: undefined[]", "x[]", "undefined"],
    ["x: Record<string, never>", "x[key]", "never"],
    ["x: { [key: string]: undefined }", "x[key]", "undefined"],
    ["x: Record<number, never>", "x[key]", "never"],
    ["x: [string, never]", "x[1]", "never"],
    ["x: { tags: never[] }", "x.tags[]", "never"],
  ])(
    "ping(%s) is refused naming the path, %s (was: the generator's own error, naming nothing)",
    (params, at, type) => {
      expect(() => oneToolSchemas(params)).toThrow(
        `Tools.ping parameter "x" (at ${at}) has type ${type}, ${holdsNoValue(type)}`,
      );
    },
    0, // a whole compiler run: no time limit (a loaded machine takes minutes)
  );

  it("an output class's Record<string, never> field is refused naming the class and the path", () => {
    const extra = outputClass(
      "export class Summary { text!: string; meta!: Record<string, never>; }",
      "Summary",
    );
    expect(() => oneToolSchemas("text: string", extra)).toThrow(
      `tools.ts: output class Summary (at Summary.meta[key]) has type never, ${holdsNoValue("never")}`,
    );
  }, 0);

  it("undefined beside other members generates as before: (string | undefined)[], Record<string, string | undefined>", () => {
    const { tools } = oneToolSchemas("a: (string | undefined)[], b: Record<string, string | undefined>");
    expect(tools["Tools.ping"]!.inputSchema.properties).toEqual({
      a: { type: "array", items: { type: "string" } },
      b: { type: "object", additionalProperties: { type: "string" } },
    });
  }, 0);
});
