// Typed input the generator cuts short or cannot type: a recursive class nested 60 levels (under the
// 64-level argument limit) is converted at every level; a union of classes is recorded with what tells
// its members apart (test/tools/union-of-classes.test.ts converts them), and a union of a class and a
// Date, which has no member to pick by, is generated with a warning the CLI prints.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LlmTool, PromptRunner, registerToolSchemas } from "entity-tools";
import { generateSchemas, type GeneratedSource } from "../../src/schema/generate-schemas.js";
import { call, mockModel, text, toolResultsSeenAt } from "../support/mock-model.js";
import { scratchProject } from "../support/scratch-project.js";

const SOURCE = `declare function LlmTool(d: string): MethodDecorator;
export class Folder { name!: string; created!: Date; child?: Folder; }
export class Cat { kind!: "cat"; lives!: number; }
export class Dog { kind!: "dog"; born!: Date; }
export class Tools {
  @LlmTool("Walk a folder tree") walk(root: Folder): string { return ""; }
  @LlmTool("Pet a pet") pet(pet: Cat | Dog): string { return ""; }
  @LlmTool("Walk") walkUntil(until: Folder | Date): string { return ""; }
}
`;

let generated: GeneratedSource | undefined;
const generate = () =>
  (generated ??= generateSchemas({
    project: path.join(scratchProject({ "tools.ts": SOURCE }, "*.ts"), "tsconfig.json"),
  }));

// The runtime classes the generated module would import (same names, same shapes).
class Folder {
  name!: string;
  created!: Date;
  child?: Folder;
}
class Tools {
  @LlmTool("Walk a folder tree")
  walk(root: Folder): string {
    const broken: number[] = [];
    let level = 0;
    for (let f: Folder | undefined = root; f; f = f.child, level++)
      if (!(f instanceof Folder) || !(f.created instanceof Date)) broken.push(level);
    return `${level} levels; not converted at: ${broken.length === 0 ? "none" : broken.slice(0, 3).join(", ")}`;
  }
}

function nested(depth: number): object {
  let folder: Record<string, unknown> = { name: `f${depth}`, created: "2026-01-01T00:00:00Z" };
  for (let i = depth - 1; i > 0; i--)
    folder = { name: `f${i}`, created: "2026-01-01T00:00:00Z", child: folder };
  return folder;
}

describe("typed input the generator cuts short", () => {
  it("a recursive class nested 60 levels: every level is an instance with a Date", async () => {
    const source = generate();
    registerToolSchemas({
      tools: { "Tools.walk": source.tools["Tools.walk"]! },
      outputs: {},
      classes: { Folder, Tools },
    });
    const model = mockModel(call("walk", { root: nested(60) }), text("done"));
    await new PromptRunner({ model }).withTools(new Tools()).run("walk");
    expect(toolResultsSeenAt(model, 1)).toEqual(["60 levels; not converted at: none"]);
  }, 0); // the first test generates: no time limit

  it("a union of classes (Cat | Dog): recorded with its members' classes and the field that tells them apart", () => {
    const source = generate();
    expect(source.tools["Tools.pet"]!.types?.pet).toEqual({
      kind: "union",
      discriminator: "kind",
      members: [
        { name: "Cat", tags: ["cat"] },
        { name: "Dog", tags: ["dog"], fields: { born: { kind: "date" } } },
      ],
    });
    // Each member of the schema the model is offered is titled with its class.
    const offered = source.tools["Tools.pet"]!.inputSchema.properties.pet as { anyOf: { title: string }[] };
    expect(offered.anyOf.map((m) => m.title)).toEqual(["Cat", "Dog"]);
  });

  it("a union of a class and a Date: generated, with a warning that says its JSON is passed as it is", () => {
    const source = generate();
    expect(source.tools["Tools.walkUntil"]!.types).toBeUndefined();
    expect(source.warnings).toEqual([
      expect.stringMatching(
        /Tools\.walkUntil parameter "until" has the union type Folder \| Date: its JSON reaches the method as it is \(a plain object, not an instance of Folder\)/,
      ),
    ]);
  });
});

it("a union without a discriminator of two same-named classes is refused, saying what to add", () => {
  const project = scratchProject(
    {
      "a/pet.ts": "export class Pet { name!: string; }\n",
      "b/pet.ts": "export class Pet { name!: string; age?: number; }\n",
      "tools.ts":
        'import { Pet as APet } from "./a/pet.js";\nimport { Pet as BPet } from "./b/pet.js";\n' +
        "declare function LlmTool(d: string): MethodDecorator;\n" +
        'export class Tools { @LlmTool("Feed") feed(pet: APet | BPet): string { return ""; } }\n',
    },
    "**/*.ts",
  );
  expect(() => generateSchemas({ project: path.join(project, "tsconfig.json") })).toThrow(
    /Tools\.feed parameter "pet" is a union of classes without a discriminator, and two of its members are named Pet: give the members a field with a literal type/,
  );
}, 0); // a generation: no time limit

it("a union without a discriminator whose member shares its name with a class elsewhere holds that member's own schema", () => {
  const project = scratchProject(
    {
      "a/pet.ts": "export class Pet { name!: string; }\nexport class Fish { fins!: number; }\n",
      "b/pet.ts": "export class Pet { tag!: string; age?: number; }\n",
      "tools.ts":
        'import { Fish, Pet as APet } from "./a/pet.js";\nimport { Pet as BPet } from "./b/pet.js";\n' +
        "declare function LlmTool(d: string): MethodDecorator;\n" +
        "export class Tools {\n" +
        '  @LlmTool("Feed") feed(pet: APet | Fish): string { return ""; }\n' +
        '  @LlmTool("Tag") tag(pet: BPet | Fish): string { return ""; }\n' +
        "}\n",
    },
    "**/*.ts",
  );
  const { tools } = generateSchemas({ project: path.join(project, "tsconfig.json") });
  const members = (tool: string) => {
    const type = tools[tool]!.types!.pet!;
    const entries =
      type.kind === "union" ? type.members.map((m) => [m.name, Object.keys(m.schema!.properties!)]) : [];
    return Object.fromEntries(entries);
  };
  expect(members("Tools.feed")).toEqual({ "a/pet.Pet": ["name"], Fish: ["fins"] });
  expect(members("Tools.tag")).toEqual({ "b/pet.Pet": ["tag", "age"], Fish: ["fins"] });
}, 0); // a generation: no time limit
