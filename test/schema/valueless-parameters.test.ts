// G31 (docs/reliability.md, hardening round 15): a tool parameter typed `undefined` or `never`, or a
// required property of its type so typed, is refused by the schema CLI naming file:line, class, method and
// parameter, as `void` is (G28): no value the model sends can be one. Before: the parameter got "could not
// resolve: give the parameter a type annotation…" (it has one), and the property was left out of the schema
// unseen (an output class's field too). `undefined` beside other members is what makes a parameter optional:
// those still generate.
import { describe, expect, it } from "vitest";
import { holdsNoValue, oneToolSchemas, outputClass } from "../support/one-tool-project.js";

describe("G31 a parameter typed undefined or never", () => {
  it.each([
    ["x: undefined", "undefined"],
    ["x?: undefined", "undefined"],
    ["x: never", "never"],
  ])(
    "ping(%s) is refused naming file:line, class, method and parameter (was: 'give the parameter a type annotation')",
    (params, type) => {
      expect(() => oneToolSchemas(params)).toThrow(
        new RegExp(`^\\S*tools\\.ts:3: Tools\\.ping parameter "x" has type ${type}, ${holdsNoValue(type)}`),
      );
    },
    0, // a whole compiler run: no time limit (a loaded machine takes minutes)
  );

  it.each(["undefined", "never"])(
    "an input class's required property typed %s is refused naming the parameter (was: left out of the schema)",
    (type) => {
      const extra = `export class Reply { text!: string; done!: ${type}; }\n`;
      expect(() => oneToolSchemas("reply: Reply", extra)).toThrow(
        new RegExp(
          `tools\\.ts:4: Tools\\.ping parameter "reply" \\(at reply\\.done\\) has type ${type}, ${holdsNoValue(type)}`,
        ),
      );
    },
    0,
  );

  it("an output class's required field typed never is refused naming the class, as a parameter is", () => {
    const extra = outputClass("export class Summary { text!: string; done!: never; }", "Summary");
    expect(() => oneToolSchemas("text: string", extra)).toThrow(
      /tools\.ts: output class Summary \(at Summary\.done\) has type never, which is never: /,
    );
  }, 0);

  it("x?: string, string | undefined and an optional property typed never (a key never sent) generate as before", () => {
    const extra = "export interface OneOf { a: string; b?: never; c?: undefined }\n";
    const { tools } = oneToolSchemas("x?: string, y: string | undefined, pick?: OneOf", extra);
    expect(tools["Tools.ping"]!.inputSchema).toEqual({
      type: "object",
      properties: {
        x: { type: "string" },
        y: { type: "string" },
        pick: {
          type: "object",
          properties: { a: { type: "string" } },
          additionalProperties: false,
          required: ["a"],
        },
      },
      additionalProperties: false,
      required: ["y"],
    });
  }, 0);
});
