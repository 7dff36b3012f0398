// G27 (docs/reliability.md, hardening round 13): a branded id, `string & { readonly __brand: "CustomerId" }`
// (or `number & …`, or the `unique symbol` form), gets its primitive's schema as a tool parameter and as an
// output class's field, and the id reaches the method as the model sent it. typescript-json-schema made it
// an object requiring `__brand`, so no id the model sent was valid (the `unique symbol` form was refused as
// a symbol). An intersection of a primitive that is no brand is refused; object & object is unchanged.
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LlmTool, registerToolSchemas } from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { brandHook } from "../../src/schema/branded-primitives.js";
import { generateSchemas, type GeneratedSource } from "../../src/schema/generate-schemas.js";
import { validateAgainst } from "../../src/schema/validate.js";
import { scratchProject } from "../support/scratch-project.js";

const DECLARE = "declare function LlmTool(d: string): MethodDecorator;\n";
const IDS = `declare const brand: unique symbol;
export type CustomerId = string & { readonly __brand: "CustomerId" };
export type Quantity = number & { readonly __brand: "Quantity" };
export type OrderId = string & { readonly [brand]: unique symbol };
export interface Brand<B> { readonly __brand: B }
export type Sku = string & Brand<"Sku">;
`;
const SOURCE = `${DECLARE}${IDS}export class Order { customer!: CustomerId; quantity?: Quantity; sku?: Sku; note?: string & {}; }
declare const runner: { createObject(target: unknown, prompt: string): unknown };
runner.createObject(Order, "Read the order");
export class Tools {
  /** @param id The customer's id */
  @LlmTool("Find") find(id: CustomerId, quantity: Quantity, order: OrderId, others: CustomerId[], previous?: CustomerId | null): string { return ""; }
}
`;
const project = (source: string) =>
  path.join(scratchProject({ "tools.ts": source }, "*.ts"), "tsconfig.json");

// The runtime classes the generated module would import: the tool says what reached it.
class Order {
  customer!: string;
  quantity?: number;
}
class Tools {
  @LlmTool("Find") find(
    id: string,
    quantity: number,
    order: string,
    others: string[],
    previous?: string | null,
  ): string {
    return `find ${JSON.stringify([id, typeof id, quantity, order, others, previous ?? "none"])}`;
  }
}

describe("G27 a branded id gets its primitive's schema (was: an object requiring __brand)", () => {
  let source: GeneratedSource;
  beforeAll(() => {
    source = generateSchemas({ project: project(SOURCE) });
  }, 0); // a whole compiler run: no time limit (a loaded machine takes minutes)

  it("a parameter: string and number brands, the unique symbol form, in an array and a union", () => {
    const find = source.tools["Tools.find"]!.inputSchema;
    expect(find.properties).toEqual({
      id: { type: "string", description: "The customer's id" },
      quantity: { type: "number" },
      order: { type: "string" },
      others: { type: "array", items: { type: "string" } },
      previous: { type: ["null", "string"] },
    });
    expect(validateAgainst(find, { id: "c123", quantity: 2, order: "o9", others: ["c7"] })).toEqual({
      ok: true,
    });
    expect(
      validateAgainst(find, { id: { __brand: "CustomerId" }, quantity: 2, order: "o9", others: [] }).ok,
    ).toBe(false);
    expect(source.tools["Tools.find"]!.types).toBeUndefined(); // nothing to convert
  });

  it("an output class's field, a brand declared as an interface, and string & {} (a brand without properties)", () => {
    expect(source.outputs["Order"]!.properties).toEqual({
      customer: { type: "string" },
      quantity: { type: "number" },
      sku: { type: "string" },
      note: { type: "string" },
    });
    expect(source.outputTypes["Order"]).toBeUndefined(); // nothing to convert
  });

  it("a run: the model sends c123 and the method receives the string c123; an answer's field is the id", async () => {
    registerToolSchemas({
      tools: { "Tools.find": source.tools["Tools.find"]! },
      outputs: { Order: source.outputs["Order"]! },
      outputTypes: source.outputTypes,
      classes: { Order, Tools },
    });
    const fake = new FakePromptRunner()
      .callTool("find", { id: "c123", quantity: 2, order: "o9", others: ["c7"], previous: "c100" })
      .respondWithObject({ customer: "c123", quantity: 2 });
    const run = await fake.withTools(new Tools()).run("Find c123", { output: Order });
    expect(fake.calls.map((c) => [c.resultText, c.isError])).toEqual([
      ['find ["c123","string",2,"o9",["c7"],"c100"]', false],
    ]);
    expect(run.result).toBeInstanceOf(Order);
    expect(run.result).toEqual({ customer: "c123", quantity: 2 });
  });
});

describe("G27 intersections that are no brand", () => {
  const refused = (params: string, extra = "") =>
    expect(() =>
      generateSchemas({
        project: project(
          `${DECLARE}${extra}export class Tools {\n  @LlmTool("t") run(${params}): string { return ""; }\n}\n`,
        ),
      }),
    );

  it("string & { length: 3 } is refused: length is a string's own property (was: an object requiring length)", () => {
    refused("code: Code", "export type Code = string & { length: 3 };\n").toThrow(
      /tools\.ts:\d+: Tools\.run parameter "code" has type Code, which is an intersection of string with an object type that is no brand .*: its schema would ask for an object, which no string is; type it string, or brand it with a phantom property, string & \{ readonly __brand: "Name" \}\./,
    );
  }, 0);

  it("a primitive with a class is no brand (a class's fields are real)", () => {
    refused("who: string & Pet", "export class Pet { name!: string; }\n").toThrow(
      'Tools.run parameter "who" has type string & Pet, which is an intersection of string with an object type that is no brand',
    );
  }, 0);

  it("a bigint brand is refused as a bigint is", () => {
    refused("total: Cents", 'export type Cents = bigint & { readonly __brand: "Cents" };\n').toThrow(
      'Tools.run parameter "total" has type bigint, which is a bigint: JSON numbers cannot carry it exactly.',
    );
  }, 0);

  it("an intersection of object types keeps its merged object schema", () => {
    const { tools } = generateSchemas({
      project: project(
        `${DECLARE}export interface Named { name: string }\nexport interface Aged { age: number }\n` +
          'export class Tools {\n  @LlmTool("t") run(who: Named & Aged): string { return ""; }\n}\n',
      ),
    });
    expect(tools["Tools.run"]!.inputSchema.properties).toEqual({
      who: {
        type: "object",
        additionalProperties: false,
        properties: { name: { type: "string" }, age: { type: "number" } },
        required: ["age", "name"],
      },
    });
  }, 0);
});

describe("G29 a primitive with a built-in object type is no brand (a Map's or an Error's members are real)", () => {
  const refused = (params: string) =>
    expect(() =>
      generateSchemas({
        project: project(
          `${DECLARE}export class Tools {\n  @LlmTool("t") run(${params}): string { return ""; }\n}\n`,
        ),
      }),
    );
  const NO_BRAND = (type: string, primitive: string) =>
    `Tools.run parameter "x" has type ${type}, which is an intersection of ${primitive} with an object type that is no brand (a brand's object types declare only properties a ${primitive} does not have)`;

  // Each declares no member its primitive has, as a brand: was taken for one, so the model was offered
  // the primitive's schema and the method got a string or a number typed as a RegExp, a Map...
  it.each([
    ["string & RegExp", "string"],
    ["string & Error", "string"],
    ["number & Map<string, number>", "number"],
    ["number & Promise<number>", "number"],
  ])(
    "%s is refused as other intersections that are no brand (was: the primitive's schema)",
    (type, primitive) => {
      refused(`x: ${type}`).toThrow(NO_BRAND(type, primitive));
    },
    0,
  );

  it("string & Date is refused (already so, as Date has a string's toString: now for being a built-in)", () => {
    refused("x: string & Date").toThrow(NO_BRAND("string & Date", "string"));
  }, 0);
});

describe("G27 where the generator cannot be made to read a brand", () => {
  const original = brandHook.install;
  afterEach(() => {
    brandHook.install = original;
  });

  it("with the typescript-json-schema the package is built with, the completion is checked and used", () => {
    expect(brandHook.works).toBe(true);
  });

  it("a branded parameter is refused naming file, class, method and parameter (never the object schema)", () => {
    brandHook.install = () => false;
    expect(brandHook.works).toBe(false);
    expect(() => generateSchemas({ project: project(SOURCE) })).toThrow(
      /tools\.ts:\d+: Tools\.find parameter "id" has type CustomerId, which is a branded string, whose schema the installed typescript-json-schema does not generate \(it would ask for an object\): type it string and cast it to the brand in the method, or npm install --save-dev typescript-json-schema@0\.68\./,
    );
  }, 0);
});
