// A union of classes told apart by its members' schemas (`Fish | Bird`) costs one validation per member
// per call: the check of the input (or the answer) finds the member, and the conversion into an instance
// uses what it found instead of validating the same JSON against every member again.
import "../fixtures/register.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PromptRunner } from "entity-tools";
import { validateAgainst } from "../../src/schema/validate.js";
import { Adoption, Bird, Shelter } from "../fixtures/pets.js";
import { call, mockModel, text, toolResultsSeenAt } from "../support/mock-model.js";

vi.mock("../../src/schema/validate.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/schema/validate.js")>();
  return { ...original, validateAgainst: vi.fn(original.validateAgainst) };
});

afterEach(() => vi.mocked(validateAgainst).mockClear());

/** How many times `json` itself (not an input or answer holding it) was validated against a schema. */
const validationsOf = (json: object) =>
  vi.mocked(validateAgainst).mock.calls.filter(([, value]) => JSON.stringify(value) === JSON.stringify(json))
    .length;

describe("a union of classes without a discriminator", () => {
  it("a tool call validates the parameter once per member, and the method gets the member", async () => {
    const animal = { name: "Tweety", wings: 2 };
    const model = mockModel(call("feed", { animal }), text("done"));
    await new PromptRunner({ model }).withTools(new Shelter()).run("Go");
    expect(toolResultsSeenAt(model, 1)).toEqual(["a Bird: Tweety flies on 2 wings"]);
    expect(validationsOf(animal)).toBe(2); // Fish's schema, Bird's schema (4 when resolved twice)
  });

  it("an answer validates its union field once per member, and becomes an instance of the member", async () => {
    const fed = { name: "Polly", wings: 2 };
    const model = mockModel(text(JSON.stringify({ pet: { kind: "dog", goodBoy: true }, fed })));
    const adoption = await new PromptRunner({ model }).createObject(Adoption, "Who was adopted?");
    expect(adoption.fed).toBeInstanceOf(Bird);
    expect(validationsOf(fed)).toBe(2);
  });
});
