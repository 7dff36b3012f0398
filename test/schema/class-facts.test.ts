// The generated module's facts about classes: how output classes' JSON becomes instances, and which
// fields TypeScript marks private or protected (hidden from the model once the module is registered).
import { describe, expect, it } from "vitest";
import { generateSchemas } from "../../src/schema/generate-schemas.js";
import { emitSchemaModule } from "../../src/schema/emit-schema-module.js";
import { scratchProject } from "../support/scratch-project.js";

const project = scratchProject(
  {
    "src/domain.ts": `
      import { LlmTool, ToolProvider } from "entity-tools";
      export class Repo { url = "postgres://secret"; }
      export class Visit { when!: Date; note!: string; }
      export class VisitReport { customer!: string; since!: Date; visits!: Visit[]; latest?: Visit; }
      @ToolProvider()
      export class Customer {
        #cache = 1;
        protected audit: string[] = [];
        constructor(public id: string, private readonly repo: Repo) {}
        /** @param days how far back */
        @LlmTool("Visits") visits(days: number): Visit[] { return []; }
      }
      declare const runner: { createObject<T>(c: new () => T, p: string): Promise<T> };
      export const report = () => runner.createObject(VisitReport, "report");
    `,
  },
  "src",
);
const generated = generateSchemas({ project: `${project}/tsconfig.json` });

describe("the generated module's class facts", () => {
  it("says how an output class's dates and nested classes are built, arrays included", () => {
    const visit = { kind: "class", name: "Visit", fields: { when: { kind: "date" } } };
    expect(generated.outputTypes).toEqual({
      VisitReport: {
        kind: "class",
        name: "VisitReport",
        fields: { since: { kind: "date" }, visits: { kind: "array", items: visit }, latest: visit },
      },
    });
    // The nested class is imported, so it can be built.
    expect(Object.keys(generated.classImports)).toContain("Visit");
  });

  it("lists private and protected fields (parameter properties too), not public or #private ones", () => {
    expect(generated.hiddenFields).toEqual({ Customer: ["audit", "repo"] });
    const text = emitSchemaModule(generated, `${project}/src/generated/tool-schemas.ts`);
    expect(text).toContain('"hiddenFields"');
    expect(text).toContain('"outputTypes"');
  });
});
