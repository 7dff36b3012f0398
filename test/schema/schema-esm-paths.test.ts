// In a `"type": "module"` project the compiler names a type of another module `import("/abs/file").T`:
// the generated module must still hold no machine path, and a recursive type's reference must resolve.
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emitSchemaModule } from "../../src/schema/emit-schema-module.js";
import { generateSchemas } from "../../src/schema/generate-schemas.js";
import { validateAgainst } from "../../src/schema/validate.js";
import { scratchProject } from "../support/scratch-project.js";

const TREE = `/** A category tree: a recursive type. */
export interface Category { title: string; sub?: Category[] }
`;
const CATALOG = `import type { Category } from "./tree.js";
declare function LlmTool(d: string): MethodDecorator;
export class Catalog {
  @LlmTool("File an item")
  file(category: Category): string { return ""; }
}
`;

describe("schemas of an ESM project", () => {
  const root = scratchProject(
    { "package.json": '{ "type": "module" }', "src/tree.ts": TREE, "src/catalog.ts": CATALOG },
    "src/*.ts",
  );
  const source = generateSchemas({ project: path.join(root, "tsconfig.json") });
  const text = emitSchemaModule(source, path.join(root, "src", "generated", "tool-schemas.ts"));

  it("a recursive type imported from another module is named without a machine path, and its $ref resolves", () => {
    expect(text).not.toContain(tmpdir());
    expect(text).not.toContain(encodeURIComponent(tmpdir()));
    expect(text).not.toContain("import(");
    const schema = source.tools["Catalog.file"]!.inputSchema;
    expect(Object.keys((schema as { definitions?: object }).definitions ?? {})).toEqual(["Category"]);
    const deep = { category: { title: "a", sub: [{ title: "b", sub: [{ title: "c" }] }] } };
    expect(validateAgainst(schema, deep)).toEqual({ ok: true });
    expect(validateAgainst(schema, { category: { title: "a", sub: [{ title: 1 }] } }).ok).toBe(false);
  });
});
