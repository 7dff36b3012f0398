// A parameter or an output field typed as a union of classes reaches the user's code as an instance of
// the member the JSON matches: by the discriminator (`kind`) for `Cat | Dog`, by the one member schema it
// validates against for `Fish | Bird`. A schema-valid input that no member or several members match is an
// `Invalid arguments` result naming the candidates (a repair request for an answer), and nothing runs.
// Legacy decorators here, under vitest (no decorator metadata); TC39 standard decorators compiled by tsc
// in test/package/installed-package.test.ts.
import "../fixtures/register.js";
import { describe, expect, it } from "vitest";
import { EntityHandleCodec, LlmTool, PromptRunner, registerToolSchemas } from "entity-tools";
import { Adoption, Bird, Dog, Kennel, Shelter } from "../fixtures/pets.js";
import { call, mockModel, text, toolResultsSeenAt } from "../support/mock-model.js";

/** What the model read back after calling `tool` with `input` on a Shelter. */
async function resultOf(tool: string, input: object): Promise<string> {
  const model = mockModel(call(tool, input), text("done"));
  await new PromptRunner({ model }).withTools(new Shelter()).run("Go");
  return toolResultsSeenAt(model, 1)[0]!;
}

describe("a parameter typed as a union of classes", () => {
  it("Cat | Dog called with a dog: the method gets a Dog, and pet.bark() works", async () => {
    expect(await resultOf("admit", { pet: { kind: "dog", goodBoy: true } })).toBe("a Dog: Woof!");
    expect(await resultOf("admit", { pet: { kind: "cat", lives: 9 } })).toBe("a Cat: Meow (9 lives)");
  });

  it("a member's own typed fields are converted too (a Dog's born is a Date)", async () => {
    const dog = { kind: "dog", goodBoy: false, born: "2020-05-01T00:00:00Z" };
    expect(await resultOf("admit", { pet: dog })).toBe("a Dog: Grr born 2020");
  });

  it("Cat | Dog | undefined: absent is undefined, present is an instance", async () => {
    expect(await resultOf("admitIfAny", {})).toBe("nothing");
    expect(await resultOf("admitIfAny", { pet: { kind: "cat", lives: 3 } })).toBe("a Cat: Meow (3 lives)");
  });

  it("(Cat | Dog)[]: each element becomes its own class", async () => {
    const pets = [
      { kind: "cat", lives: 7 },
      { kind: "dog", goodBoy: true },
    ];
    expect(await resultOf("admitAll", { pets })).toBe("a Cat: Meow (7 lives); a Dog: Woof!");
  });

  it("Fish | Bird (no discriminator): the one member whose schema validates", async () => {
    expect(await resultOf("feed", { animal: { name: "Tweety", wings: 2 } })).toBe(
      "a Bird: Tweety flies on 2 wings",
    );
  });

  it("Fish | Bird valid as both: the model reads which candidates it could be, and the method is not called", async () => {
    expect(await resultOf("feed", { animal: { name: "Nemo" } })).toBe(
      'Invalid arguments for "feed": field "animal" could be a Fish or a Bird (it is valid as each): send a field only one of them has.',
    );
  });

  it("a discriminator no member has: the model reads the candidates and their kinds", async () => {
    expect(await resultOf("admit", { pet: { kind: "fish", name: "Nemo" } })).toBe(
      'Invalid arguments for "admit": field "pet" is none of Cat, Dog: its "kind" must be "cat" (Cat) or "dog" (Dog).',
    );
  });

  it("a Dog with a wrong field: the model reads what is wrong as a Dog, not Cat's complaints", async () => {
    expect(
      await resultOf("admitAll", {
        pets: [
          { kind: "cat", lives: 1 },
          { kind: "dog", goodBoy: "yes" },
        ],
      }),
    ).toBe(
      'Invalid arguments for "admitAll": field "pets.1" is not a valid Dog: field "pets.1.goodBoy" must be boolean.',
    );
  });

  it("two wrong pets in (Cat | Dog)[]: each item's line names that item's problems only", async () => {
    // One union, one schemaPath, in every item: the members' errors were grouped by schemaPath alone, so
    // the first item's line listed every item's problems and the second item's had none.
    expect(
      await resultOf("admitAll", {
        pets: [
          { kind: "dog", goodBoy: "yes" },
          { kind: "cat", lives: 1 },
          { kind: "cat", lives: "nine" },
        ],
      }),
    ).toBe(
      'Invalid arguments for "admitAll": field "pets.0" is not a valid Dog: field "pets.0.goodBoy" must be boolean; field "pets.2" is not a valid Cat: field "pets.2.lives" must be number.',
    );
  });

  it("thousands of wrong pets: the model reads the first 20 and how many more, without the process stalling", async () => {
    // Grouping compared every union error with every other error: 4 000 wrong items took two minutes of
    // CPU (the event loop blocked), and the answer listed all of them.
    const pets = Array.from({ length: 4000 }, (_, i) => ({ kind: "cat", lives: `${i}` }));
    const result = await resultOf("admitAll", { pets });
    const lines = result.replace(/^Invalid arguments for "admitAll": /, "").split("; ");
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('field "pets.0" is not a valid Cat: field "pets.0.lives" must be number');
    expect(lines[19]).toBe('field "pets.19" is not a valid Cat: field "pets.19.lives" must be number');
    expect(lines[20]).toBe("and 3980 more problems.");
  });

  it("handles mode: the handle tool converts too, and refuses a pet of no member the same way", async () => {
    const codec = new EntityHandleCodec("union-of-classes-test-key");
    const handle = codec.handleOf(new Kennel("k1"));
    const model = mockModel(
      call("kennel", { id: "k1" }),
      call("kennel_house", { handle, pet: { kind: "dog", goodBoy: true } }),
      call("kennel_house", { handle, pet: { kind: "bird" } }),
      text("done"),
    );
    await new PromptRunner({ model })
      .withTools(new Shelter())
      .withToolProviderDiscovery({ binding: "handles", handleKey: "union-of-classes-test-key" })
      .run("Go");
    expect(toolResultsSeenAt(model, 3).slice(1)).toEqual([
      "k1 houses a Dog: Woof!",
      'Invalid arguments for "kennel_house": field "pet" is none of Cat, Dog: its "kind" must be "cat" (Cat) or "dog" (Dog).',
    ]);
  });
});

describe("an output class with fields typed as unions of classes", () => {
  it("createObject gives instances of the members the answer matches", async () => {
    const model = mockModel(
      text(JSON.stringify({ pet: { kind: "dog", goodBoy: true }, fed: { name: "Polly", wings: 2 } })),
    );
    const adoption = await new PromptRunner({ model }).createObject(Adoption, "Who was adopted?");
    expect(adoption.pet).toBeInstanceOf(Dog);
    expect((adoption.pet as Dog).bark()).toBe("Woof!");
    expect(adoption.fed).toBeInstanceOf(Bird);
  });

  it("an answer valid as two members is sent back with the candidates, and the repaired answer is used", async () => {
    const model = mockModel(
      text(JSON.stringify({ pet: { kind: "cat", lives: 2 }, fed: { name: "Nemo" } })),
      text(JSON.stringify({ pet: { kind: "cat", lives: 2 }, fed: { name: "Polly", wings: 2 } })),
    );
    const adoption = await new PromptRunner({ model }).createObject(Adoption, "Who was adopted?");
    const repair = model.doGenerateCalls[1]!.prompt.at(-1)!;
    expect(JSON.stringify(repair.content)).toContain(
      'field \\"fed\\" could be a Fish or a Bird (it is valid as each): send a field only one of them has',
    );
    expect(adoption.fed).toBeInstanceOf(Bird);
  });
});

describe("a union member whose name another class of the project has (registered under its key)", () => {
  // As the schema CLI writes them: `sea/fish.Fish` (the project has another Fish) and `Heron`.
  class Fish {
    name!: string;
  }
  class Heron {
    name!: string;
    wings?: number;
  }
  class Pond {
    @LlmTool("Feed an animal")
    feed(animal: Fish | Heron): string {
      return animal instanceof Fish ? "fed a Fish" : "fed a Heron";
    }
  }
  const fish = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
  const heron = { ...fish, properties: { ...fish.properties, wings: { type: "number" } } };
  registerToolSchemas({
    tools: {
      "Pond.feed": {
        parameters: ["animal"],
        inputSchema: {
          type: "object",
          properties: {
            animal: {
              anyOf: [
                { title: "Fish", ...fish },
                { title: "Heron", ...heron },
              ],
            },
          },
          required: ["animal"],
        },
        types: {
          animal: {
            kind: "union",
            members: [
              { name: "sea/fish.Fish", schema: { ...fish, additionalProperties: false } },
              { name: "Heron", schema: { ...heron, additionalProperties: false } },
            ],
          },
        },
      },
    },
    outputs: {},
    classes: { "sea/fish.Fish": Fish, Heron, Pond },
  });

  it("becomes its own class, and the model reads it by the name its schema is titled with", async () => {
    const model = mockModel(
      call("feed", { animal: { name: "Nemo" } }),
      call("feed", { animal: { name: "Bo", wings: 2 } }),
      text("done"),
    );
    await new PromptRunner({ model }).withTools(new Pond()).run("Go");
    expect(toolResultsSeenAt(model, 2)).toEqual([
      'Invalid arguments for "feed": field "animal" could be a Fish or a Heron (it is valid as each): send a field only one of them has.',
      "fed a Heron",
    ]);
  });
});
