// G32 (docs/reliability.md, hardening round 15): the fields of a parameter typed through a mapped type,
// `Omit<Order, "id">`, `Partial<Order>`, `Readonly<Order>`, `Pick<Order, "items">` (at any depth), are held
// to the rules of `Order`'s own fields (type-reading.ts). Before, the type reading did not walk into them
// (their symbol is the lib's, as a built-in type's is): a `Map` field was not refused and reached the
// model as an object with `size`, and where the `Record`/brand completions are unavailable a `Record<string,
// V>` field got the schema only `{}` satisfies and a branded id an object requiring `__brand`, unseen. The
// fields a mapped type makes from literal keys alone (`Record<"from" | "to", Date>`) had no type the reading
// could find: their dates were not converted, and a project's own such type was refused as unresolved.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { brandHook } from "../../src/schema/branded-primitives.js";
import { generateSchemas } from "../../src/schema/generate-schemas.js";
import { mappedRecordHook } from "../../src/schema/mapped-records.js";
import { scratchProject } from "../support/scratch-project.js";

const ORDER = `export type CustomerId = string & { readonly __brand: "CustomerId" };
export interface Order { id: string; counts: Record<string, number>; customer: CustomerId; when: Date }
`;
const generate = (params: string, extra: string) =>
  generateSchemas({
    project: path.join(
      scratchProject(
        {
          "tools.ts":
            `declare function LlmTool(d: string): MethodDecorator;\n${ORDER}${extra}export class Tools {\n` +
            `  @LlmTool("Put") put(${params}): string { return ""; }\n}\n`,
        },
        "*.ts",
      ),
      "tsconfig.json",
    ),
  });

const WITH_MAP = "export interface Stock extends Order { items: Map<string, number> }\n";
const MAP_REFUSED =
  /tools\.ts:6: Tools\.put parameter "o" \(at o\.items\) has type Map<string, number>, which is a Map: send a plain object \(\{ \[key: string\]: V \}\) instead\./;

describe("G32 a Map field inside a mapped type is refused as it is outside (was: an object with size)", () => {
  it.each(['Omit<Stock, "id">', "Partial<Stock>", "Readonly<Stock>", 'Pick<Stock, "items">'])(
    "o: %s is refused naming the parameter, the path to the field and its type",
    (type) => {
      expect(() => generate(`o: ${type}`, WITH_MAP)).toThrow(MAP_REFUSED);
    },
    0, // a whole compiler run: no time limit (a loaded machine takes minutes)
  );

  it("nested: an array of Readonly<Partial<Line>> in an interface field, Line holding a Set", () => {
    const extra =
      "export interface Line { sku: string; tags: Set<string> }\n" +
      "export interface Cart { lines: Readonly<Partial<Line>>[] }\n";
    expect(() => generate("o: Partial<Omit<Cart, never>>", extra)).toThrow(
      /tools\.ts:7: Tools\.put parameter "o" \(at o\.lines\[\]\.tags\) has type Set<string>, which is a Set: send an array instead\./,
    );
  }, 0);
});

describe("G32 the fields a mapped type makes from keys, and from a class's methods", () => {
  it("o: Record<'from' | 'to', Date>: each field becomes a Date (was: the method got strings typed Date)", () => {
    const { tools } = generate("o: Record<'from' | 'to', Date>", "");
    expect(tools["Tools.put"]!.types).toEqual({
      o: { kind: "object", fields: { from: { kind: "date" }, to: { kind: "date" } } },
    });
  }, 0);

  it("a mapped type of the project's own over literal keys is generated (was: refused as 'does not resolve')", () => {
    const extra = 'export type Flags = { [K in "a" | "b"]: boolean };\n';
    const { tools } = generate("o: Flags", extra);
    expect(tools["Tools.put"]!.inputSchema.properties).toEqual({
      o: {
        type: "object",
        properties: { a: { type: "boolean" }, b: { type: "boolean" } },
        additionalProperties: false,
        required: ["a", "b"],
      },
    });
  }, 0);

  it("o: Record<'a' | 'b', Map<string, number>> is refused naming the parameter, the path to the field and its type", () => {
    expect(() => generate("o: Record<'a' | 'b', Map<string, number>>", "")).toThrow(
      /tools\.ts:5: Tools\.put parameter "o" \(at o\.a\) has type Map<string, number>, which is a Map/,
    );
  }, 0);

  it("o: Partial<Settings> generates as before: a class's methods are not fields JSON carries, outside or in", () => {
    const extra = "export class Settings { theme = 'dark'; reset(): void {} }\n";
    const { tools } = generate("o: Partial<Settings>", extra);
    expect(tools["Tools.put"]!.inputSchema.properties).toMatchObject({
      o: { type: "object", properties: { theme: { type: "string" } } },
    });
  }, 0);
});

describe("G32 a Record field and a branded id inside a mapped type", () => {
  const originals = { record: mappedRecordHook.install, brand: brandHook.install };
  afterEach(() => {
    mappedRecordHook.install = originals.record;
    brandHook.install = originals.brand;
  });

  it("with the completions, Partial<Order> and Omit<Order, 'id'> give each field the schema it has in Order", () => {
    const { tools } = generate('whole: Order, part: Partial<Order>, rest: Omit<Order, "id">', "");
    const properties = tools["Tools.put"]!.inputSchema.properties as Record<string, { properties: object }>;
    expect(properties["whole"]!.properties).toEqual({
      id: { type: "string" },
      counts: { type: "object", additionalProperties: { type: "number" } },
      customer: { type: "string" },
      when: { type: "string", format: "date-time" },
    });
    expect(properties["part"]!.properties).toEqual(properties["whole"]!.properties);
    const { id: _, ...rest } = properties["whole"]!.properties as Record<string, object>;
    expect(properties["rest"]!.properties).toEqual(rest);
    expect(tools["Tools.put"]!.types).toEqual({
      whole: { kind: "object", fields: { when: { kind: "date" } } },
      part: { kind: "object", fields: { when: { kind: "date" } } },
      rest: { kind: "object", fields: { when: { kind: "date" } } },
    });
  }, 0);

  it("without the Record completion, a Record field in Partial<Order> is refused (was: the schema only {} satisfies)", () => {
    mappedRecordHook.install = () => false;
    expect(() => generate("o: Partial<Order>", "")).toThrow(
      /tools\.ts:5: Tools\.put parameter "o" \(at o\.counts\) has type Record<string, number>, which is a mapped type over string keys, whose schema the installed typescript-json-schema does not generate/,
    );
  }, 0);

  it("without the brand completion, a branded id in Pick<Order, 'customer'> is refused (was: an object requiring __brand)", () => {
    brandHook.install = () => false;
    expect(() => generate('o: Pick<Order, "customer">', "")).toThrow(
      /tools\.ts:5: Tools\.put parameter "o" \(at o\.customer\) has type CustomerId, which is a branded string, whose schema the installed typescript-json-schema does not generate/,
    );
  }, 0);
});
