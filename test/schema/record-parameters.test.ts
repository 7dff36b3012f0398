// G10 (docs/reliability.md, hardening round 12): `Record<string, V>` and its other spellings (an alias,
// `{ [K in string]: V }`, a field of an interface, an array element, nested) get the schema the index
// signature `{ [key: string]: V }` gets, and a call with such a value reaches the method. typescript-json-
// schema alone made each an object that accepted only `{}`; the CLI then refused them.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { LlmTool, PromptRunner, registerToolSchemas } from "entity-tools";
import { generateSchemas, type GeneratedSource } from "../../src/schema/generate-schemas.js";
import { validateAgainst } from "../../src/schema/validate.js";
import { call, mockModel, text, toolResultsSeenAt } from "../support/mock-model.js";
import { scratchProject } from "../support/scratch-project.js";

const SOURCE = `declare function LlmTool(d: string): MethodDecorator;
export class Pet { name!: string; legs?: number; }
export type Scores = Record<string, number>;
export interface Tally { byStatus: Record<string, number> }
export class Tools {
  @LlmTool("Count") count(counts: Record<string, number>): string { return ""; }
  @LlmTool("Tally") tally(tally: Tally): string { return ""; }
  @LlmTool("Score") score(scores: Scores): string { return ""; }
  @LlmTool("Batch") batch(batches: Record<string, string[]>[]): string { return ""; }
  @LlmTool("Adopt") adopt(pets: Record<string, Pet>): string { return ""; }
  @LlmTool("Mixed") mixed(bag: { [K in string]: Pet | number }, deep: Record<string, Record<string, boolean>>, some?: Partial<Record<string, number>>): string { return ""; }
  @LlmTool("Twins") twins(counts: { [key: string]: number }, tally: { byStatus: { [key: string]: number } }, batches: { [key: string]: string[] }[], pets: { [key: string]: Pet }, bag: { [key: string]: Pet | number }, deep: { [key: string]: { [key: string]: boolean } }): string { return ""; }
}
`;

// The runtime classes the generated module would import (same names, same shapes): each tool says what
// reached it.
class Pet {
  name!: string;
  legs?: number;
}
const seen = (value: unknown) => JSON.stringify(value);
class Tools {
  @LlmTool("Count") count(counts: Record<string, number>): string {
    return `count ${seen(counts)}`;
  }
  @LlmTool("Tally") tally(tally: { byStatus: Record<string, number> }): string {
    return `tally ${seen(tally)}`;
  }
  @LlmTool("Score") score(scores: Record<string, number>): string {
    return `score ${seen(scores)}`;
  }
  @LlmTool("Batch") batch(batches: Record<string, string[]>[]): string {
    return `batch ${seen(batches)}`;
  }
  @LlmTool("Adopt") adopt(pets: Record<string, Pet>): string {
    const instances = Object.values(pets).map((pet) => pet instanceof Pet);
    return `adopt ${seen(pets)} instances ${seen(instances)}`;
  }
}

let source: GeneratedSource;
const property = (tool: string, name: string) =>
  (source.tools[`Tools.${tool}`]!.inputSchema.properties as Record<string, unknown>)[name];

describe("G10 Record<string, V> gets the index signature's schema (was: refused; before that, a schema accepting only {})", () => {
  beforeAll(() => {
    source = generateSchemas({
      project: path.join(scratchProject({ "tools.ts": SOURCE }, "*.ts"), "tsconfig.json"),
    });
  }, 0); // a whole compiler run: no time limit (a loaded machine takes minutes)

  it("a parameter, an interface field, an alias, an array of records, a record of a class, a union, nested", () => {
    expect(property("count", "counts")).toEqual({ type: "object", additionalProperties: { type: "number" } });
    expect(property("score", "scores")).toEqual(property("count", "counts"));
    expect(property("tally", "tally")).toEqual(property("twins", "tally"));
    expect(property("batch", "batches")).toEqual({
      type: "array",
      items: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } },
    });
    expect(property("batch", "batches")).toEqual(property("twins", "batches"));
    const pet = {
      type: "object",
      properties: { name: { type: "string" }, legs: { type: "number" } },
      additionalProperties: false,
      required: ["name"],
    };
    expect(property("adopt", "pets")).toEqual({ type: "object", additionalProperties: pet });
    expect(property("adopt", "pets")).toEqual(property("twins", "pets"));
    expect(property("mixed", "bag")).toEqual(property("twins", "bag"));
    expect(property("mixed", "deep")).toEqual(property("twins", "deep"));
    expect(property("mixed", "some")).toEqual({ type: "object", additionalProperties: { type: "number" } });
    // How the value reaches the method is the index signature's too (see the run below).
    expect(source.tools["Tools.adopt"]!.types).toEqual(source.tools["Tools.twins"]!.types);
  });

  it("the schema takes any keys with valid values, and refuses an invalid value", () => {
    const adopt = source.tools["Tools.adopt"]!.inputSchema;
    expect(validateAgainst(adopt, { pets: { rex: { name: "Rex", legs: 4 }, tom: { name: "Tom" } } })).toEqual(
      {
        ok: true,
      },
    );
    expect(validateAgainst(adopt, { pets: { rex: { legs: 4 } } }).ok).toBe(false);
    const count = source.tools["Tools.count"]!.inputSchema;
    expect(validateAgainst(count, { counts: {} })).toEqual({ ok: true });
    expect(validateAgainst(count, { counts: { open: "two" } }).ok).toBe(false);
  });

  it("a call reaches the method with the value", async () => {
    const used = ["count", "tally", "score", "batch", "adopt"].map((m) => `Tools.${m}`);
    registerToolSchemas({
      tools: Object.fromEntries(used.map((key) => [key, source.tools[key]!])),
      outputs: {},
      classes: { Pet, Tools },
    });
    const model = mockModel(
      call("count", { counts: { open: 2, shipped: 5 } }),
      call("tally", { tally: { byStatus: { open: 1 } } }),
      call("score", { scores: { ann: 9.5 } }),
      call("batch", { batches: [{ a: ["x", "y"] }, {}] }),
      call("adopt", { pets: { rex: { name: "Rex", legs: 4 } } }),
      text("done"),
    );
    await new PromptRunner({ model }).withTools(new Tools()).run("count");
    expect(toolResultsSeenAt(model, 5)).toEqual([
      'count {"open":2,"shipped":5}',
      'tally {"byStatus":{"open":1}}',
      'score {"ann":9.5}',
      'batch [{"a":["x","y"]},{}]',
      // A class's values arrive as the index signature's do: as JSON, not instances (neither is converted).
      'adopt {"rex":{"name":"Rex","legs":4}} instances [false]',
    ]);
  });
});
