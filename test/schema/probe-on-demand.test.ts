// The schema CLI's two generator completions (`Record<string, V>`, mapped-records.ts; brands,
// branded-primitives.ts) are each checked by a probe: an in-memory program and generator, 50–140 ms. A
// project with neither kind of type pays for neither probe; a project with one pays for that one, once,
// whether the type reading meets the type (a parameter) or only the generator does (a field of an
// `Omit<…>`, whose members the reading does not walk into).
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { brandHook } from "../../src/schema/branded-primitives.js";
import { generateSchemas } from "../../src/schema/generate-schemas.js";
import type { GeneratorCompletion } from "../../src/schema/generator-probe.js";
import { mappedRecordHook } from "../../src/schema/mapped-records.js";
import { scratchProject } from "../support/scratch-project.js";

const DECLARE = "declare function LlmTool(d: string): MethodDecorator;\n";
const project = (source: string) =>
  path.join(scratchProject({ "tools.ts": `${DECLARE}${source}` }, "*.ts"), "tsconfig.json");

const hooks = { record: mappedRecordHook, brand: brandHook };
const originals = { record: mappedRecordHook.install, brand: brandHook.install };
afterEach(() => {
  mappedRecordHook.install = originals.record;
  brandHook.install = originals.brand;
});

/**
 * Forgets what earlier tests of this process found out (a new `install`, the same completion), then
 * counts how many probes each completion runs while `generate` does.
 */
function probesDuring(generate: () => void): { record: number; brand: number } {
  const fresh =
    (install: GeneratorCompletion): GeneratorCompletion =>
    (g, c, ready) =>
      install(g, c, ready);
  mappedRecordHook.install = fresh(originals.record);
  brandHook.install = fresh(originals.brand);
  const before = { record: hooks.record.probes, brand: hooks.brand.probes };
  generate();
  return { record: hooks.record.probes - before.record, brand: hooks.brand.probes - before.brand };
}

/** The input properties of `tool` generated from `source`, and the probes that generation ran. */
function generated(
  source: string,
  tool: string,
): { probes: { record: number; brand: number }; properties: unknown } {
  let properties: unknown;
  const probes = probesDuring(() => {
    properties = generateSchemas({ project: project(source) }).tools[tool]!.inputSchema.properties;
  });
  return { probes, properties };
}

it("a project without a Record or a brand builds neither probe's program, and its schemas are generated", () => {
  const source = `export class Address { street!: string; }
export interface Named { name: string }
export interface Aged { age: number }
export class Tools {
  @LlmTool("t")
  save(at: Date, address: Address, who: Named & Aged, tags: { [key: string]: string }, kind?: "a" | "b"): string { return ""; }
}\n`;
  const { probes, properties } = generated(source, "Tools.save");
  expect(probes).toEqual({ record: 0, brand: 0 });
  expect(properties).toMatchObject({
    at: { type: "string", format: "date-time" },
    tags: { type: "object", additionalProperties: { type: "string" } },
    who: { type: "object", required: ["age", "name"] },
  });
}, 0); // a whole compiler run: no time limit (a loaded machine takes minutes)

it("a Record<string, V> parameter runs the Record probe once and not the brand's", () => {
  const source = `export class Tools {
  @LlmTool("t")
  tally(counts: Record<string, number>, more: Record<string, number>): string { return ""; }
}\n`;
  const { probes, properties } = generated(source, "Tools.tally");
  expect(probes).toEqual({ record: 1, brand: 0 });
  expect(properties).toEqual({
    counts: { type: "object", additionalProperties: { type: "number" } },
    more: { type: "object", additionalProperties: { type: "number" } },
  });
}, 0);

it("a Record and a brand met only by the generator (fields of an Omit<…>) are still completed", () => {
  const source = `export type UserId = string & { readonly __brand: "UserId" };
export interface User { id: UserId; manager: UserId; meta: Record<string, number> }
export class Tools {
  @LlmTool("t")
  update(user: Omit<User, "id">): string { return ""; }
}\n`;
  const { probes, properties } = generated(source, "Tools.update");
  expect(probes).toEqual({ record: 1, brand: 1 });
  expect(properties).toMatchObject({
    user: {
      properties: {
        manager: { type: "string" },
        meta: { type: "object", additionalProperties: { type: "number" } },
      },
    },
  });
}, 0);

it("completions that throw where they are put on: a plain project is generated, a Record or a brand refused", () => {
  const throwing: GeneratorCompletion = () => {
    throw new TypeError("Cannot assign to read only property 'getTypeDefinition'");
  };
  mappedRecordHook.install = throwing;
  brandHook.install = throwing;
  const plain = `export class Tools {
  @LlmTool("t")
  count(counts: { [key: string]: number }): string { return ""; }
}\n`;
  expect(generateSchemas({ project: project(plain) }).tools["Tools.count"]!.inputSchema.properties).toEqual({
    counts: { type: "object", additionalProperties: { type: "number" } },
  });
  const record = `export class Tools {
  @LlmTool("t")
  tally(counts: Record<string, number>): string { return ""; }
}\n`;
  expect(() => generateSchemas({ project: project(record) })).toThrow(
    /Tools\.tally parameter "counts" has type Record<string, number>, which is a mapped type over string keys, whose schema the installed typescript-json-schema does not generate/,
  );
  const brand = `export type UserId = string & { readonly __brand: "UserId" };
export class Tools {
  @LlmTool("t")
  find(id: UserId): string { return ""; }
}\n`;
  expect(() => generateSchemas({ project: project(brand) })).toThrow(
    /Tools\.find parameter "id" has type UserId, which is a branded string, whose schema the installed typescript-json-schema does not generate/,
  );
}, 0);
