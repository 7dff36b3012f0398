// G28 (docs/reliability.md, hardening round 14): a tool parameter typed `void` is refused by the schema CLI
// naming file:line, class, method and parameter, as any type JSON cannot carry is (type-reading.ts). Before:
// `ping(x: void)` (or a `void` property inside a parameter's type) failed with typescript-json-schema's own
// `Not supported: root type undefined`, naming nothing, and `ping(x?: void)` was given the schema
// `{ "anyOf": [] }`, which is not valid JSON Schema.
import { describe, expect, it } from "vitest";
import { holdsNoValue, oneToolSchemas, outputClass } from "../support/one-tool-project.js";

const WHAT_TO_DO = holdsNoValue("void");

describe("G28 a parameter typed void", () => {
  it("ping(x: void) is refused naming file:line, class, method and parameter (was: the generator's own error, naming nothing)", () => {
    expect(() => oneToolSchemas("x: void")).toThrow(
      /^\S*tools\.ts:3: Tools\.ping parameter "x" has type void, which is void: /,
    );
    expect(() => oneToolSchemas("x: void")).toThrow(WHAT_TO_DO);
  }, 0);

  it("ping(x?: void) is refused (was: the schema { anyOf: [] }, which is no valid JSON Schema)", () => {
    expect(() => oneToolSchemas("x?: void")).toThrow(
      /tools\.ts:3: Tools\.ping parameter "x" has type void, which is void: /,
    );
  }, 0);

  it("a void property inside a parameter's type is refused naming the parameter, the path to the property and its type", () => {
    expect(() =>
      oneToolSchemas("reply: Reply", "export interface Reply { text: string; done: void }\n"),
    ).toThrow(/tools\.ts:4: Tools\.ping parameter "reply" \(at reply\.done\) has type void, which is void: /);
  }, 0);

  it("an output class's void field is refused naming the class, as a parameter is", () => {
    const extra = outputClass("export class Summary { text!: string; done!: void; }", "Summary");
    expect(() => oneToolSchemas("text: string", extra)).toThrow(
      /tools\.ts: output class Summary \(at Summary\.done\) has type void, which is void: /,
    );
  }, 0);
});
