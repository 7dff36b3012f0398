import "../fixtures/register.js";
import { describe, expect, it } from "vitest";
import { findToolSchema } from "../../src/schema/schema-store.js";
import { validateAgainst } from "../../src/schema/validate.js";
import { Customer } from "../fixtures/shop.js";

const schema = findToolSchema(Customer, "findOrders")!.inputSchema;

describe("validateAgainst", () => {
  it("accepts valid input", () => {
    expect(validateAgainst(schema, { statuses: ["open"], since: "2026-01-01T00:00:00Z" })).toEqual({
      ok: true,
    });
  });

  it("names every bad field and what was expected", () => {
    const outcome = validateAgainst(schema, { statuses: "open", shipTo: { city: 3 }, colour: "red" });
    expect(outcome).toEqual({
      ok: false,
      problems: expect.arrayContaining([
        'field "statuses" must be array',
        'missing required field "shipTo.street"',
        'field "shipTo.city" must be string',
        'unexpected field "colour"',
      ]),
    });
  });

  it("reports a wrong enum value with the allowed values", () => {
    const outcome = validateAgainst(schema, { statuses: ["lost"] });
    expect(outcome).toEqual({
      ok: false,
      problems: ['field "statuses.0" must be one of ["cancelled","open","shipped"]'],
    });
  });
});

describe("validateAgainst, schemas that claim one $id", () => {
  const tree = (value: object) => ({
    $id: "tree",
    type: "object",
    properties: { value, kids: { type: "array", items: { $ref: "tree" } } },
    required: ["value"],
  });

  it("validates each by its own schema, a reference to its own $id included", () => {
    const numbers = tree({ type: "integer" });
    const words = tree({ type: "string" });
    expect(validateAgainst(numbers, { value: 1, kids: [{ value: 2 }] })).toEqual({ ok: true });
    expect(validateAgainst(words, { value: "a", kids: [{ value: "b" }] })).toEqual({ ok: true });
    expect(validateAgainst(words, { value: "a", kids: [{ value: 2 }] }).ok).toBe(false);
    expect(validateAgainst(numbers, { value: 1, kids: [{ value: "b" }] }).ok).toBe(false);
  });

  it("validates each by its own schema when one's root claims the $id another's definition has", () => {
    const item = { $id: "item", type: "integer" };
    const order = {
      type: "object",
      properties: { item: { $ref: "item" } },
      required: ["item"],
      definitions: { item: { $id: "item", type: "string" } },
    };
    expect(validateAgainst(item, 1)).toEqual({ ok: true });
    expect(validateAgainst(order, { item: "a" })).toEqual({ ok: true });
    expect(validateAgainst(order, { item: 1 }).ok).toBe(false);
  });
});

describe("validateAgainst, a union of classes (members titled with their class)", () => {
  const cat = {
    title: "Cat",
    type: "object",
    properties: { kind: { const: "cat" }, lives: { type: "number" } },
    required: ["kind", "lives"],
    additionalProperties: false,
  };
  const dog = {
    title: "Dog",
    type: "object",
    properties: { kind: { const: "dog" }, goodBoy: { type: "boolean" } },
    required: ["kind", "goodBoy"],
    additionalProperties: false,
  };
  const pets = { type: "object", properties: { pet: { anyOf: [cat, dog, { type: "null" }] } } };

  it("says which member each problem is of when the value names none (no discriminator in it)", () => {
    expect(validateAgainst(pets, { pet: { lives: 3 } })).toEqual({
      ok: false,
      problems: [
        'field "pet" is none of Cat, Dog, null (as Cat: missing required field "pet.kind"; as Dog: missing required field "pet.kind", missing required field "pet.goodBoy", unexpected field "pet.lives")',
      ],
    });
  });

  it("names the members when the value is not an object at all", () => {
    expect(validateAgainst(pets, { pet: 3 })).toEqual({
      ok: false,
      problems: ['field "pet" is none of Cat, Dog, null'],
    });
  });
});
