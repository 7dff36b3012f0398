// The schema CLI refuses what JSON Schema cannot express, naming file, method and parameter.
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { findToolMethods } from "../../src/schema/find-tool-methods.js";
import { generateSchemas } from "../../src/schema/generate-schemas.js";
import { SourceClasses } from "../../src/schema/source-classes.js";
import { scratchProject } from "../support/scratch-project.js";

const REFUSED: Record<string, { readonly source: string; readonly message: RegExp }> = {
  map: {
    source: "m: Map<string, number>",
    message: /parameter "m" has type Map<string, number>, which is a Map: send a plain object/,
  },
  set: {
    source: "s: Set<string>",
    message: /parameter "s" has type Set<string>, which is a Set: send an array instead/,
  },
  function: { source: "f: () => void", message: /parameter "f" has type \(\) => void, which is a function/ },
  generic: {
    source: "x: T",
    generic: true,
    message: /parameter "x" has type T, which is a generic type parameter/,
  } as never,
  bigint: { source: "b: bigint", message: /parameter "b" has type bigint, which is a bigint/ },
  nested: {
    source: "o: { when: Date; fn: () => void }",
    message: /parameter "o" \(at o\.fn\) has type \(\) => void, which is a function/,
  },
  hiddenClass: {
    source: "h: Hidden",
    message: /parameter "h" has the class type Hidden, which is not exported: export it/,
  },
};

const project = (files: Record<string, string>) => scratchProject(files, "*.ts");

const tool = (name: string, params: string, generic = false) => `
declare function LlmTool(d: string): MethodDecorator;
class Hidden { a = 1; }
export class Tools_${name} {
  @LlmTool("t")
  run${generic ? "<T>" : ""}(${params}): string { return ""; }
}`;

describe("the schema CLI refuses what it cannot express", () => {
  const dir = project(
    Object.fromEntries(
      Object.entries(REFUSED).map(([name, c]) => [`${name}.ts`, tool(name, c.source, name === "generic")]),
    ),
  );
  const program = ts.createProgram([...Object.keys(REFUSED).map((n) => path.join(dir, `${n}.ts`))], {
    experimentalDecorators: true,
    strict: true,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();

  for (const [name, { message }] of Object.entries(REFUSED)) {
    it(`${name}: an error naming file, method and parameter, with what to do`, () => {
      const file = program.getSourceFile(path.join(dir, `${name}.ts`))!;
      const read = () => findToolMethods(file, checker, new SourceClasses(checker));
      expect(read).toThrow(message);
      expect(read).toThrow(new RegExp(`${name}\\.ts:6: Tools_${name}\\.run parameter`));
    });
  }

  it("a type the generator cannot resolve from the method's file is refused, not sent as {}", () => {
    const unresolved = project({
      "a.ts": `declare function LlmTool(d: string): MethodDecorator;
import { start } from "./b.js";
export class Tools { @LlmTool("t") put(c = start): string { return ""; } }`,
      "b.ts": `interface Cat { title: string; sub?: Cat[] }\nexport const start: Cat = { title: "root" };`,
    });
    expect(() => generateSchemas({ project: path.join(unresolved, "tsconfig.json") })).toThrow(
      /a\.ts:3: Tools\.put parameter "c" has type Cat, which the schema generator could not resolve/,
    );
  });
});
