// G28 (docs/reliability.md, hardening round 14): a tool parameter typed `void` is refused by the schema CLI
// naming file:line, class, method and parameter, as any type JSON cannot carry is (type-reading.ts). Before:
// `ping(x: void)` (or a `void` property inside a parameter's type) failed with typescript-json-schema's own
// `Not supported: root type undefined`, naming nothing, and `ping(x?: void)` was given the schema
// `{ "anyOf": [] }`, which is not valid JSON Schema.
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

const WHAT_TO_DO =
  "which is void: no value the model sends can be one; leave it out, or type it with what it takes. Use a type JSON can carry";

describe("G28 a parameter typed void", () => {
  it("ping(x: void) is refused naming file:line, class, method and parameter (was: the generator's own error, naming nothing)", () => {
    expect(() => generate("x: void")).toThrow(
      /^\S*tools\.ts:3: Tools\.ping parameter "x" has type void, which is void: /,
    );
    expect(() => generate("x: void")).toThrow(WHAT_TO_DO);
  }, 0);

  it("ping(x?: void) is refused (was: the schema { anyOf: [] }, which is no valid JSON Schema)", () => {
    expect(() => generate("x?: void")).toThrow(
      /tools\.ts:3: Tools\.ping parameter "x" has type void, which is void: /,
    );
  }, 0);

  it("a void property inside a parameter's type is refused naming the parameter, the path to the property and its type", () => {
    expect(() => generate("reply: Reply", "export interface Reply { text: string; done: void }\n")).toThrow(
      /tools\.ts:4: Tools\.ping parameter "reply" \(at reply\.done\) has type void, which is void: /,
    );
  }, 0);

  it("an output class's void field is refused naming the class, as a parameter is", () => {
    const extra =
      "export class Summary { text!: string; done!: void; }\n" +
      "declare const runner: { createObject(target: unknown, prompt: string): unknown };\n" +
      'runner.createObject(Summary, "Sum up");\n';
    expect(() => generate("text: string", extra)).toThrow(
      /tools\.ts: output class Summary \(at Summary\.done\) has type void, which is void: /,
    );
  }, 0);
});
