// A scratch project of one class with one tool, `Tools.<method>(<params>)` at line 3 of tools.ts (after
// `extra`'s own lines), and the schemas the CLI makes of it: for the schema tests of what a parameter's type
// may be, which differ only in that type.
import path from "node:path";
import { generateSchemas, type GeneratedSource } from "../../src/schema/generate-schemas.js";
import { scratchProject } from "./scratch-project.js";

/** The schemas of `Tools.<method>(<params>)`, `extra` written above the class (types it names). */
export function oneToolSchemas(params: string, extra = "", method = "ping"): GeneratedSource {
  const tool = `${method[0]!.toUpperCase()}${method.slice(1)}`;
  return generateSchemas({
    project: path.join(
      scratchProject(
        {
          "tools.ts":
            `declare function LlmTool(d: string): MethodDecorator;\n${extra}export class Tools {\n` +
            `  @LlmTool("${tool}") ${method}(${params}): string { return ""; }\n}\n`,
        },
        "*.ts",
      ),
      "tsconfig.json",
    ),
  });
}

/** The end of a refusal of a type that holds no value (`void`, `undefined`, `never`), as a user reads it. */
export const holdsNoValue = (type: string) =>
  `which is ${type}: no value the model sends can be one; leave it out, or type it with what it takes. Use a type JSON can carry`;

/** `extra` for {@link oneToolSchemas} that declares `declaration` and makes class `name` an output class. */
export const outputClass = (declaration: string, name: string) =>
  `${declaration}\ndeclare const runner: { createObject(target: unknown, prompt: string): unknown };\n` +
  `runner.createObject(${name}, "Sum up");\n`;
