// G34 (docs/reliability.md, hardening round 15): `never` or `undefined` as an array's or a tuple's element
// or an index signature's value, `never[]`, `undefined[]`, `Record<string, never>` (the "empty object"
// idiom), `{ [key: string]: undefined }`, is refused as a parameter or a required field so typed is (G31),
// naming the path to it (G33): such a parameter can only be `[]` or `{}`, which carries nothing the method
// can use. Before: typescript-json-schema stopped with its own `Unsupported type: never` or `Not
// supported: root type undefined`, naming nothing. `undefined` beside other members still generates.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateSchemas } from "../../src/schema/generate-schemas.js";
import { scratchProject } from "../support/scratch-project.js";

const generate = (params: string, extra = "") =>
  generateSchemas({
    project: path.join(
      scratchProject(
        {
          "tools.ts":
            `declare function LlmTool(d: string): MethodDecorator;\n${extra}export class Tools {\n` +
            `  @LlmTool("Ping") ping(${params}): string { return ""; }\n}\n`,
        },
        "*.ts",
      ),
      "tsconfig.json",
    ),
  });

const WHAT_TO_DO = (type: string) =>
  `which is ${type}: no value the model sends can be one; leave it out, or type it with what it takes. Use a type JSON can carry`;

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
      expect(() => generate(params)).toThrow(
        `Tools.ping parameter "x" (at ${at}) has type ${type}, ${WHAT_TO_DO(type)}`,
      );
    },
    0, // a whole compiler run: no time limit (a loaded machine takes minutes)
  );

  it("an output class's Record<string, never> field is refused naming the class and the path", () => {
    const extra =
      "export class Summary { text!: string; meta!: Record<string, never>; }\n" +
      "declare const runner: { createObject(target: unknown, prompt: string): unknown };\n" +
      'runner.createObject(Summary, "Sum up");\n';
    expect(() => generate("text: string", extra)).toThrow(
      `tools.ts: output class Summary (at Summary.meta[key]) has type never, ${WHAT_TO_DO("never")}`,
    );
  }, 0);

  it("undefined beside other members generates as before: (string | undefined)[], Record<string, string | undefined>", () => {
    const { tools } = generate("a: (string | undefined)[], b: Record<string, string | undefined>");
    expect(tools["Tools.ping"]!.inputSchema.properties).toEqual({
      a: { type: "array", items: { type: "string" } },
      b: { type: "object", additionalProperties: { type: "string" } },
    });
  }, 0);
});
