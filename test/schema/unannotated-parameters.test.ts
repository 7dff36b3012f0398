// Parameters without a type annotation: the generator writes each method's parameters as an interface
// before the checker has run (one program for reading the sources and for the schemas), guessing an
// unannotated parameter's type from the syntax. Where the syntax does not give the type (a default that
// is not a literal), the checker's type is used all the same: every tool gets the schema its annotated
// twin gets.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateSchemas } from "../../src/schema/generate-schemas.js";
import { scratchProject } from "../support/scratch-project.js";

const DECLARE = "declare function LlmTool(d: string): MethodDecorator;\n";
const MODE = 'export enum Mode { Fast = "fast", Careful = "careful" }\n';

describe("unannotated tool parameters", () => {
  it("get the schemas (and run-time types) of the same parameters annotated", () => {
    const project = scratchProject(
      {
        "mode.ts": MODE,
        "guessed.ts":
          DECLARE +
          "export class Guessed {\n" +
          '  @LlmTool("Find") find(limit = 10, offset = -1, name = "all", exact = false, q?) { return q; }\n' +
          "}\n",
        "checked.ts":
          DECLARE +
          'import { Mode } from "./mode.js";\n' +
          "export class Checked {\n" +
          '  @LlmTool("Plan") plan(since = new Date(0), mode = Mode.Fast, tags = ["a"]) { return mode; }\n' +
          "}\n",
        "annotated.ts":
          DECLARE +
          'import { Mode } from "./mode.js";\n' +
          "export class Annotated {\n" +
          '  @LlmTool("Find") find(limit: number = 10, offset: number = -1, name: string = "all", exact: boolean = false, q?: any) { return q; }\n' +
          '  @LlmTool("Plan") plan(since: Date = new Date(0), mode: Mode = Mode.Fast, tags: string[] = ["a"]) { return mode; }\n' +
          "}\n",
      },
      "*.ts",
    );
    const { tools } = generateSchemas({ project: path.join(project, "tsconfig.json") });
    expect(tools["Guessed.find"]).toEqual(tools["Annotated.find"]);
    expect(tools["Checked.plan"]).toEqual(tools["Annotated.plan"]);
    expect(tools["Annotated.find"]?.inputSchema.properties).toMatchObject({
      limit: { type: "number", default: 10 },
      exact: { type: "boolean", default: false },
    });
    expect(tools["Annotated.plan"]).toMatchObject({
      inputSchema: {
        properties: {
          since: { type: "string", format: "date-time" },
          mode: { enum: ["careful", "fast"] },
          tags: { type: "array", items: { type: "string" } },
        },
      },
      types: { since: { kind: "date" } },
    });
  }, 0); // a whole compiler run: no time limit (a loaded machine takes minutes)
});
