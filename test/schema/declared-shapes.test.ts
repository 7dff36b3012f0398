// Hardening round 12 (docs/reliability.md, "declaring tools"): parameter declarations a user writes, through
// the schema CLI. Each gets the schema the model can meet, or a build-time error naming file, class, method
// and parameter: never a schema that silently accepts the wrong input.
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { findToolMethods } from "../../src/schema/find-tool-methods.js";
import { generateSchemas } from "../../src/schema/generate-schemas.js";
import { SourceClasses } from "../../src/schema/source-classes.js";
import { validateAgainst } from "../../src/schema/validate.js";
import { scratchProject } from "../support/scratch-project.js";

const DECLARE = "declare function LlmTool(d: string): MethodDecorator;\n";
const tool = (params: string, extra = "") => `${DECLARE}${extra}export class Tools {
  @LlmTool("t")
  run(${params}): string { return ""; }
}\n`;

const REFUSED: Record<
  string,
  { readonly source: string; readonly extra?: string; readonly message: string }
> = {
  recordOfBigint: {
    source: "totals: Record<string, bigint>",
    message:
      'Tools.run parameter "totals" (at totals[key]) has type bigint, which is a bigint: JSON numbers cannot carry it exactly.',
  },
  indexOfMap: {
    source: "o: Opts",
    extra: "export interface Opts { byKey: { [key: string]: Map<string, number> } }\n",
    message:
      'parameter "o" (at o.byKey[key]) has type Map<string, number>, which is a Map: send a plain object',
  },
  tupleDate: {
    source: "span: [Date, Date]",
    message:
      'Tools.run parameter "span" has the tuple type [Date, Date], whose element Date would reach the method as JSON (tuple elements are not converted): use an object with a named field for it, or an array',
  },
  templateKeys: {
    source: "ids: Prefixed",
    extra: "export type Prefixed = Record<`x_${string}`, number>;\n",
    message:
      'Tools.run parameter "ids" has type Prefixed, which has keys of type `x_${string}`: the generated schema cannot express them (it would refuse every key); type the keys as string, { [key: string]: number }, and check them in the method.',
  },
  templateIndex: {
    source: "ids: { [key: `x_${string}`]: number }",
    message: "which has keys of type `x_${string}`: the generated schema cannot express them",
  },
  propertyKeys: {
    source: "bag: Record<PropertyKey, unknown>",
    message: "which has keys of type symbol: the generated schema cannot express them",
  },
  stringAndNumber: {
    source: "bag: Record<string | number, number>",
    message:
      'Tools.run parameter "bag" has type Record<string | number, number>, which has both a string and a number index signature (as Record<string | number, V> has): the generated schema would keep only the digit keys; every key JSON sends is a string, so type the keys as string, { [key: string]: number }.',
  },
  indexIntersection: {
    source: "pets: { [name: string]: number } & { owner: number }",
    message:
      "which is an intersection with an index signature: the generated schema would drop the index signature (and refuse every key but the named properties); declare one interface with the named properties and the index signature, [key: string]: number.",
  },
  classIndex: {
    source: "shelf: Shelf",
    extra: "export class Pet { name!: string; }\nexport class Shelf { owner!: Pet; [name: string]: Pet; }\n",
    message:
      "Tools.run parameter \"shelf\" has the class type Shelf, whose index signature's values (Pet) would reach the method as JSON (a class's extra keys are not converted): declare an interface with the index signature instead, or give the class a field typed Record<string, V> for them",
  },
  rest: {
    source: "id: string, ...tags: string[]",
    message:
      "Tools.run parameter \"tags\" is a rest parameter: a tool's input is one object keyed by the method's parameter names; take an array instead (tags: T[])",
  },
};

describe("refused at build time, naming file, class, method and parameter", () => {
  const dir = scratchProject(
    Object.fromEntries(Object.entries(REFUSED).map(([name, c]) => [`${name}.ts`, tool(c.source, c.extra)])),
    "*.ts",
  );
  const program = ts.createProgram(
    Object.keys(REFUSED).map((n) => path.join(dir, `${n}.ts`)),
    { experimentalDecorators: true, strict: true, target: ts.ScriptTarget.ES2022 },
  );
  const checker = program.getTypeChecker();
  const cases: Record<string, string> = {
    recordOfBigint:
      "G10 a Record<string, V> whose V JSON cannot carry (record-parameters.test.ts generates the rest)",
    indexOfMap: "G10 an index signature whose values JSON cannot carry (was: generated)",
    tupleDate: "G11 a tuple holding a Date (its elements are not converted)",
    templateKeys: "G23 a Record over template literal keys (was: a schema accepting only {})",
    templateIndex:
      "G23 an index signature over template literal keys (was: the generator's own error, naming nothing)",
    propertyKeys: "G23 PropertyKey (or symbol) keys (was: a schema accepting only digit keys)",
    stringAndNumber: "G23 a string and a number index together (was: a schema accepting only digit keys)",
    indexIntersection:
      "G23 an index signature in an intersection (was: a schema accepting only the named properties)",
    classIndex: "G22 a class with an index signature whose values need converting (were left as JSON)",
    rest: "G12 a rest parameter",
  };
  for (const [name, title] of Object.entries(cases)) {
    it(title, () => {
      const file = program.getSourceFile(path.join(dir, `${name}.ts`))!;
      const read = () => findToolMethods(file, checker, new SourceClasses(checker));
      expect(read).toThrow(REFUSED[name]!.message);
      expect(read).toThrow(new RegExp(`${name}\\.ts:\\d+: Tools\\.run parameter`));
    });
  }
});

describe("through the whole generator", () => {
  it("G12 a destructured parameter is refused with its own message (was: `syntax error in the project: ` and nothing more)", () => {
    const dir = scratchProject({ "orders.ts": tool("{ sku, qty }: { sku: string; qty: number }") }, "*.ts");
    expect(() => generateSchemas({ project: path.join(dir, "tsconfig.json") })).toThrow(
      "orders.ts:4: Tools.run parameter #1 ({ sku, qty }) is a destructuring pattern: a tool's input is one object keyed by the method's parameter names; give the parameter a name and read its fields in the method",
    );
  }, 0); // a whole compiler run: no time limit (a loaded machine takes minutes)

  it("G19 an output class with a Record<string, V> field gets the index signature's schema (was: an answer schema accepting only {})", () => {
    const dir = scratchProject(
      {
        "summary.ts":
          "export class Summary { counts!: Record<string, number>; }\n" +
          "declare const runner: { createObject(target: unknown, prompt: string): unknown };\n" +
          'runner.createObject(Summary, "Count the orders by status");\n',
      },
      "*.ts",
    );
    const summary = generateSchemas({ project: path.join(dir, "tsconfig.json") }).outputs["Summary"]!;
    expect(summary.properties).toEqual({
      counts: { type: "object", additionalProperties: { type: "number" } },
    });
    expect(validateAgainst(summary, { counts: { open: 2, shipped: 5 } })).toEqual({ ok: true });
  }, 0);

  it("G11, G13–G15: tuples, a quoted method name, a static twin, and the shapes that already worked", () => {
    const dir = scratchProject(
      {
        "shapes.ts":
          DECLARE +
          "export interface Node { label: string; children: Node[] }\n" +
          "export enum Level { Low, High }\n" +
          'export enum Color { Red = "red", Blue = "blue" }\n' +
          "export interface Named { name: string }\nexport interface Aged { age: number }\n" +
          "export class Tools {\n" +
          '  @LlmTool("t") pair(at: [number, number], entry: [key: string, value?: number], o: { path: [string, ...number[]] }): string { return ""; }\n' +
          '  @LlmTool("t") ["find-one"](id: string): string { return id; }\n' +
          '  @LlmTool("t") static count(kind: string): number { return 0; }\n' +
          '  @LlmTool("t") count(limit: number): number { return limit; }\n' +
          '  @LlmTool("t") shapes(tree: Node, mode: "fast" | "careful" | 3, level: Level, color: Color, anything: unknown, scores: { [key: string]: number }, who: Named & Aged, patch: Partial<Named>, keyed: Record<"a" | "b", boolean>, ref: `id-${number}`): string { return ""; }\n' +
          "}\n",
      },
      "*.ts",
    );
    const { tools } = generateSchemas({ project: path.join(dir, "tsconfig.json") });
    const pair = tools["Tools.pair"]!.inputSchema;
    expect(pair.properties).toMatchObject({
      at: { type: "array", items: [{ type: "number" }, { type: "number" }], minItems: 2, maxItems: 2 },
      entry: { type: "array", minItems: 1, maxItems: 2 },
      o: { properties: { path: { items: [{ type: "string" }], additionalItems: { type: "number" } } } },
    });
    expect(validateAgainst(pair, { at: [1, 2], entry: ["k"], o: { path: ["a", 1, 2] } })).toEqual({
      ok: true,
    });
    expect(validateAgainst(pair, { at: [1], entry: ["k"], o: { path: ["a"] } }).ok).toBe(false);
    // G13: the key the method is looked up by at run time; G14: the static one is no tool (refused where defined)
    expect(Object.keys(tools)).toEqual(["Tools.count", "Tools.find-one", "Tools.pair", "Tools.shapes"]);
    expect(tools["Tools.count"]!.parameters).toEqual(["limit"]);
    // G15
    const shapes = tools["Tools.shapes"]!;
    expect(shapes.inputSchema.properties).toMatchObject({
      tree: { properties: { children: { items: { $ref: "#/definitions/Node" } } } },
      mode: { enum: [3, "careful", "fast"] },
      level: { type: "number", enum: [0, 1] },
      color: { type: "string", enum: ["red", "blue"] },
      anything: {},
      scores: { type: "object", additionalProperties: { type: "number" } },
      who: { properties: { name: { type: "string" }, age: { type: "number" } }, required: ["age", "name"] },
      patch: { properties: { name: { type: "string" } } },
      keyed: { required: ["a", "b"] },
      ref: { type: "string", pattern: "^id-[0-9]*$" },
    });
    expect(shapes.inputSchema.required).toHaveLength(10);
    expect(
      validateAgainst(shapes.inputSchema, {
        tree: { label: "r", children: [{ label: "c", children: [] }] },
        mode: "fast",
        level: 1,
        color: "red",
        anything: [1, "x"],
        scores: { a: 1, b: 2 },
        who: { name: "Ann", age: 3 },
        patch: {},
        keyed: { a: true, b: false },
        ref: "id-42",
      }),
    ).toEqual({ ok: true });
  }, 0);
});
