import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../src/schema/schema-cli.js";
import { scratchProject } from "../support/scratch-project.js";
import { tempDir } from "../support/temp-dir.js";

const project = "test/fixtures/tsconfig.json";
/** A project of one tool: what the CLI does with a generation (generated-schemas.test.ts checks the fixtures'). */
const oneTool = () =>
  path.join(
    scratchProject(
      {
        "src/customer.ts": `declare function LlmTool(d: string): MethodDecorator;
export class Customer { @LlmTool("Recent orders") getRecentOrders(limit: number): string[] { return []; } }
`,
      },
      "src",
    ),
    "tsconfig.json",
  );

describe("entity-tools schemas", () => {
  afterEach(() => vi.restoreAllMocks());

  it("writes the module, and --check passes on it and fails once it is stale", () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const out = path.join(tempDir("schemas-"), "tool-schemas.ts");
    const tools = oneTool();
    expect(main(["schemas", "--project", tools, "--out", out])).toBe(0);
    expect(readFileSync(out, "utf8")).toContain('"Customer.getRecentOrders"');
    expect(main(["schemas", "--project", tools, "--out", out, "--check"])).toBe(0);
    expect(error).not.toHaveBeenCalled();
    writeFileSync(out, "// edited\n");
    expect(main(["schemas", "--project", tools, "--out", out, "--check"])).toBe(1);
    expect(error).toHaveBeenCalledWith(expect.stringContaining("is stale"));
  }, 0); // three generations: no time limit (a loaded machine takes minutes)

  it("prints --help to stdout", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    expect(main(["--help"])).toBe(0);
    expect(main(["schemas", "--help"])).toBe(0);
    expect(log.mock.calls.map((c) => String(c[0]).split("\n")[0])).toEqual([
      expect.stringContaining("Usage: entity-tools schemas"),
      expect.stringContaining("Usage: entity-tools schemas"),
    ]);
  });

  it("explains usage on a wrong command or option", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(main(["schemaz"])).toBe(2);
    expect(main(["schemas", "--bogus"])).toBe(2);
    expect(main(["schemas"])).toBe(2);
    expect(error.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringContaining('Unknown command "schemaz"'),
      expect.stringContaining("Unknown option '--bogus'"),
      expect.stringContaining("--out is required"),
    ]);
  });

  it("refuses an --out that is not a TypeScript file, saying why, and writes nothing", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const out = path.join(tempDir("schemas-"), "tool-schemas.js");
    expect(main(["schemas", "--project", project, "--out", out])).toBe(2);
    expect(existsSync(out)).toBe(false);
    expect(String(error.mock.calls[0]?.[0])).toContain(
      "the generated module is TypeScript, so it needs a .ts",
    );
  });

  it("warns when a project has no tools and no output classes (a JavaScript project, a wrong include)", () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const dir = scratchProject({ "src/tools.js": "export class Tools { find(q) { return q; } }\n" }, "src");
    const out = path.join(dir, "src", "generated", "tool-schemas.ts");
    expect(main(["schemas", "--project", path.join(dir, "tsconfig.json"), "--out", out])).toBe(0);
    expect(String(warn.mock.calls[0]?.[0])).toContain(
      "no @LlmTool method and no createObject/run output class",
    );
  }, 0); // a generation: no time limit

  it("prints the generation's warnings (a parameter typed as a union of a class and a Date)", () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const dir = scratchProject(
      {
        "src/tools.ts": `declare function LlmTool(d: string): MethodDecorator;
export class Cat { lives!: number; }
export class Tools { @LlmTool("Pet") pet(pet: Cat | Date): string { return ""; } }
`,
      },
      "src",
    );
    const out = path.join(dir, "src", "generated", "tool-schemas.ts");
    expect(main(["schemas", "--project", path.join(dir, "tsconfig.json"), "--out", out])).toBe(0);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(
        /^entity-tools schemas: warning: .*Tools\.pet parameter "pet" has the union type Cat \| Date/,
      ),
    ]);
  }, 0); // a generation: no time limit
});
