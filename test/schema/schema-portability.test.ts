// Generated modules do not depend on the checkout's location or on formatting; --check says what changed.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as prettier from "prettier";
import { afterEach, describe, expect, it, vi } from "vitest";
import { emitSchemaModule } from "../../src/schema/emit-schema-module.js";
import { generateSchemas } from "../../src/schema/generate-schemas.js";
import { main } from "../../src/schema/schema-cli.js";
import { scratchProject } from "../support/scratch-project.js";
import { tempDir } from "../support/temp-dir.js";

const SOURCE = `declare function LlmTool(d: string): MethodDecorator;
/** A category tree: a recursive type. */
export interface Category { title: string; sub?: Category[] }
export class Place { city!: string }
export class Catalog {
  @LlmTool("File an item")
  file(category: Category, when: Date, where: Place): string { return ""; }
  @LlmTool("Move a book")
  "move.book"(shelf: number): string { return ""; }
}
export const Shelf = class {
  @LlmTool("Count")
  count(min: number): number { return min; }
};
`;

/** The project, two folders deep in a fresh temporary folder: a checkout somewhere. */
const checkout = () => scratchProject({ "src/catalog.ts": SOURCE }, "src/*.ts", "deeper/project");

describe("generated modules", () => {
  afterEach(() => vi.restoreAllMocks());
  const first = checkout();
  const second = path.join(tempDir("elsewhere-"), "p");
  cpSync(first, second, { recursive: true });
  const out = (root: string) => path.join(root, "src", "generated", "tool-schemas.ts");
  const generate = (root: string) =>
    emitSchemaModule(generateSchemas({ project: path.join(root, "tsconfig.json") }), out(root));
  const text = generate(first);

  it("are identical in two checkouts in different places (a recursive type included)", () => {
    expect(generate(second)).toBe(text);
    expect(text).not.toContain(tmpdir());
    expect(text).toContain('"$ref": "#/definitions/Category"');
  });

  it("key quoted method names and class expressions as the runtime does, and import the classes", () => {
    expect(text).toContain('"Catalog.move.book"');
    expect(text).toContain('"Shelf.count"');
    expect(text).toContain('import { Catalog } from "../catalog.js";');
    expect(text).toContain('import { Shelf } from "../catalog.js";');
  });

  it("--check passes after prettier and CRLF, and lists what changed when the meaning differs", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const project = path.join(first, "tsconfig.json");
    const file = out(first);
    expect(main(["schemas", "--project", project, "--out", file, "--check"])).toBe(1);
    expect(error).toHaveBeenLastCalledWith(
      expect.stringContaining("is missing: run entity-tools schemas without --check"),
    );
    expect(main(["schemas", "--project", project, "--out", file])).toBe(0);
    const formatted = await prettier.format(readFileSync(file, "utf8"), {
      parser: "typescript",
      singleQuote: true,
      trailingComma: "all",
      printWidth: 60,
    });
    writeFileSync(file, formatted.replace(/\n/g, "\r\n"));
    expect(main(["schemas", "--project", project, "--out", file, "--check"])).toBe(0);
    writeFileSync(path.join(first, "src", "catalog.ts"), SOURCE.replace("shelf: number", "shelf: string"));
    expect(main(["schemas", "--project", project, "--out", file, "--check"])).toBe(1);
    expect(error).toHaveBeenLastCalledWith(
      expect.stringMatching(/is stale: .*What changed:\n {2}~ tools Catalog\.move\.book$/),
    );
  });
});
