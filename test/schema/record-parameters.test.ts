// G10 (docs/reliability.md, hardening round 12): `Record<string, V>` and its other spellings (an alias,
// `{ [K in string]: V }`, a field of an interface, an array element, nested) get the schema the index
// signature `{ [key: string]: V }` gets, and a call with such a value reaches the method. typescript-json-
// schema alone made each an object that accepted only `{}`; the CLI then refused them. G20: the values of
// either spelling are converted as V is (a class instance, a `Date`); they reached the method as JSON.
// G22: beside named properties too, and with number keys; a named property is converted as its own type.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { LlmTool, PromptRunner, registerToolSchemas } from "entity-tools";
import { generateSchemas, type GeneratedSource } from "../../src/schema/generate-schemas.js";
import { validateAgainst } from "../../src/schema/validate.js";
import { unionProblem } from "../../src/tools/union-input.js";
import { call, mockModel, text, toolResultsSeenAt } from "../support/mock-model.js";
import { scratchProject } from "../support/scratch-project.js";

const SOURCE = `declare function LlmTool(d: string): MethodDecorator;
export class Pet { name!: string; legs?: number; }
export type Scores = Record<string, number>;
export interface Tally { byStatus: Record<string, number> }
export class Cat { kind!: "cat"; }
export class Dog { kind!: "dog"; }
export class Roster { pets!: Record<string, Pet>; }
export interface Kennel { owner: Pet; tag: { name: string }; [name: string]: Pet; }
export interface Visits { first: Date; [vet: string]: Date; }
declare const runner: { createObject(target: unknown, prompt: string): unknown };
runner.createObject(Roster, "List the pets");
export class Tools {
  @LlmTool("Count") count(counts: Record<string, number>): string { return ""; }
  @LlmTool("Tally") tally(tally: Tally): string { return ""; }
  @LlmTool("Score") score(scores: Scores): string { return ""; }
  @LlmTool("Batch") batch(batches: Record<string, string[]>[]): string { return ""; }
  @LlmTool("Adopt") adopt(pets: Record<string, Pet>): string { return ""; }
  @LlmTool("Mixed") mixed(bag: { [K in string]: Pet | number }, deep: Record<string, Record<string, boolean>>, some?: Partial<Record<string, number>>): string { return ""; }
  @LlmTool("Visit") visit(visits: Record<string, Date>): string { return ""; }
  @LlmTool("Kennel") kennel(pets: { [key: string]: Pet }): string { return ""; }
  @LlmTool("Feed") feed(pets: Record<string, Cat | Dog>): string { return ""; }
  @LlmTool("Board") board(kennel: Kennel, visits: Visits, byId: Record<number, Pet>): string { return ""; }
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
    return `adopt ${seen(pets)} instances ${seen(Object.values(pets).map((pet) => pet instanceof Pet))}`;
  }
  @LlmTool("Visit") visit(visits: Record<string, Date>): string {
    return `visit ${seen(Object.entries(visits).map(([key, at]) => [key, at instanceof Date && at.getUTCDate()]))}`;
  }
  @LlmTool("Kennel") kennel(pets: { [key: string]: Pet }): string {
    return `kennel ${seen(Object.values(pets).map((pet) => pet instanceof Pet && pet.name))}`;
  }
  @LlmTool("Board") board(
    kennel: { owner: Pet; tag: { name: string }; [name: string]: Pet },
    visits: { first: Date; [vet: string]: Date },
    byId: Record<number, Pet>,
  ): string {
    const kinds = (record: object) =>
      Object.entries(record).map(
        ([key, v]) => `${key}:${v instanceof Pet ? "Pet" : v instanceof Date ? "Date" : typeof v}`,
      );
    return `board ${seen([kinds(kennel), kinds(visits), kinds(byId)])}`;
  }
}

let source: GeneratedSource;
const property = (tool: string, name: string) =>
  (
    source.tools[`Tools.${tool}`]!.inputSchema.properties as Record<
      string,
      { additionalProperties?: unknown }
    >
  )[name];

describe("G10 Record<string, V> gets the index signature's schema (was: refused; before that, a schema accepting only {})", () => {
  beforeAll(() => {
    source = generateSchemas({
      project: path.join(scratchProject({ "tools.ts": SOURCE }, "*.ts"), "tsconfig.json"),
    });
  }, 0); // a whole compiler run: no time limit (a loaded machine takes minutes)

  it("a parameter, an interface field, an alias, an array of records, a record of a class, a union, nested (G20: and how each value is converted)", () => {
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
    // Each value is converted as V is, for either spelling (see the run below).
    expect(source.tools["Tools.adopt"]!.types?.pets).toEqual({
      kind: "record",
      values: { kind: "class", name: "Pet" },
    });
    expect(source.tools["Tools.adopt"]!.types?.pets).toEqual(source.tools["Tools.twins"]!.types?.pets);
    expect(source.tools["Tools.visit"]!.types?.visits).toEqual({ kind: "record", values: { kind: "date" } });
    expect(source.tools["Tools.count"]!.types).toBeUndefined();
    // G22: beside named properties (each converted as its own type, never as V), and with number keys
    expect(source.tools["Tools.board"]!.types).toEqual({
      kennel: {
        kind: "record",
        values: { kind: "class", name: "Pet" },
        fields: { owner: { kind: "class", name: "Pet" } },
        properties: ["owner", "tag"],
      },
      visits: {
        kind: "record",
        values: { kind: "date" },
        fields: { first: { kind: "date" } },
        properties: ["first"],
      },
      byId: { kind: "record", values: { kind: "class", name: "Pet" } },
    });
    expect(property("board", "byId")).toEqual({
      type: "object",
      additionalProperties: false,
      patternProperties: { "^[0-9]+$": property("adopt", "pets")!.additionalProperties },
    });
    // An answer's record field too (typed output converts it as typed input does).
    expect(source.outputTypes["Roster"]).toEqual({
      kind: "class",
      name: "Roster",
      fields: { pets: { kind: "record", values: { kind: "class", name: "Pet" } } },
    });
  });

  it("G20 a record of a union of classes: each value picks its member, and one of none is named by its key", () => {
    const pets = source.tools["Tools.feed"]!.types!.pets!;
    expect(pets).toEqual({
      kind: "record",
      values: {
        kind: "union",
        discriminator: "kind",
        members: [
          { name: "Cat", tags: ["cat"] },
          { name: "Dog", tags: ["dog"] },
        ],
      },
    });
    expect(unionProblem({ tom: { kind: "cat" }, rex: { kind: "dog" } }, pets)).toBeUndefined();
    expect(unionProblem({ tom: { kind: "cat" }, daisy: { kind: "cow" } }, pets)).toBe(
      `field "daisy" is none of Cat, Dog: its "kind" says which (Cat "cat", Dog "dog")`,
    );
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
    // G23: number keys are digit strings; any other key is refused, not dropped
    const board = source.tools["Tools.board"]!.inputSchema;
    const kennel = { owner: { name: "Ann" }, tag: { name: "red" } };
    const visits = { first: "2026-03-01T10:00:00Z" };
    expect(validateAgainst(board, { kennel, visits, byId: { 7: { name: "Seven" } } })).toEqual({ ok: true });
    expect(validateAgainst(board, { kennel, visits, byId: { seven: { name: "Seven" } } }).ok).toBe(false);
  });

  it("G20 a call reaches the method with the value, each value converted as V is", async () => {
    const used = ["count", "tally", "score", "batch", "adopt", "visit", "kennel", "board"].map(
      (m) => `Tools.${m}`,
    );
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
      call("visit", { visits: { vet: "2026-03-04T10:00:00Z", groomer: "2026-03-09T10:00:00Z" } }),
      call("kennel", { pets: { a: { name: "Ace" }, b: { name: "Bo" } } }),
      call("board", {
        kennel: { owner: { name: "Ann" }, tag: { name: "red" }, rex: { name: "Rex" } },
        visits: { first: "2026-03-01T10:00:00Z", vet: "2026-03-04T10:00:00Z" },
        byId: { 7: { name: "Seven" } },
      }),
      text("done"),
    );
    await new PromptRunner({ model }).withTools(new Tools()).run("count");
    expect(toolResultsSeenAt(model, 8)).toEqual([
      'count {"open":2,"shipped":5}',
      'tally {"byStatus":{"open":1}}',
      'score {"ann":9.5}',
      'batch [{"a":["x","y"]},{}]',
      'adopt {"rex":{"name":"Rex","legs":4}} instances [true]',
      'visit [["vet",4],["groomer",9]]',
      // G20: an index signature's values are converted too (they reached the method as JSON)
      'kennel ["Ace","Bo"]',
      // G22: an index signature's values beside named properties, and a number-keyed record's (were JSON);
      // a named property keeps its own type (`tag` is a plain object, though a Pet would fit it)
      'board [["owner:Pet","tag:object","rex:Pet"],["first:Date","vet:Date"],["7:Pet"]]',
    ]);
  });
});
