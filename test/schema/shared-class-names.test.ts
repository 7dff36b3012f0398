// Two exported classes of one project with one name (two bounded contexts' `Customer` and `Address`): the
// generated module registers each under a qualified key (`crm.Customer` by its prefix, a path for a class
// without one), which is then the class's name at run time.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import ts from "typescript";
import { findToolMethods } from "../../src/schema/find-tool-methods.js";
import { SharedClassNames } from "../../src/schema/shared-class-names.js";
import { SourceClasses } from "../../src/schema/source-classes.js";
import { emitSchemaModule } from "../../src/schema/emit-schema-module.js";
import { readModuleMeaning } from "../../src/schema/module-meaning.js";
import { main } from "../../src/schema/schema-cli.js";
import { SchemaSourceError } from "../../src/schema/schema-source-error.js";
import { scratchProject } from "../support/scratch-project.js";

const customer = (prefix: string) => `
declare function ToolProvider(o?: object): ClassDecorator;
declare function LlmTool(d: string): MethodDecorator;
@ToolProvider({ prefix: "${prefix}" })
export class Customer {
  constructor(public id: string) {}
  @LlmTool("close") close(): string { return ""; }
}`;

describe("same-named classes in one project", () => {
  // The committed module of test/fixtures/contexts (generated-schemas.test.ts checks it is what the CLI writes).
  it("are registered as <prefix>.<Name> (providers) and <path>.<Name> (others), each with its own schema", async () => {
    const { toolSchemas } = await import("../fixtures/contexts/generated/tool-schemas.js");
    const [{ Customer: CrmCustomer }, { Customer: BillingCustomer }] = await Promise.all([
      import("../fixtures/contexts/crm/customer.js"),
      import("../fixtures/contexts/billing/customer.js"),
    ]);
    expect(toolSchemas.classes).toMatchObject({
      "crm.Customer": CrmCustomer,
      "billing.Customer": BillingCustomer,
    });
    expect(Object.keys(toolSchemas.classes!)).toContain("crm/customer.Address");
    expect(Object.keys(toolSchemas.tools)).toEqual(
      expect.arrayContaining(["crm.Customer.close", "crm.Customer.moveTo", "billing.Customer.invoiceTo"]),
    );
    expect(toolSchemas.tools["crm.Customer.moveTo"]!.types).toEqual({
      address: { kind: "class", name: "crm/customer.Address" },
    });
    expect(toolSchemas.returns).toEqual({ "Directory.find": ["billing.Customer", "crm.Customer"] });
  });

  it("a module imports each under its own identifier", () => {
    const module = emitSchemaModule(
      {
        tools: {},
        outputs: {},
        classImports: {
          "crm.Customer": { file: "/p/crm/customer.ts", exportName: "Customer" },
          crm_Customer: { file: "/p/other.ts", exportName: "crm_Customer" },
        },
        outputTypes: {},
        hiddenFields: {},
        request: { project: "/p/tsconfig.json", outputTypes: [] },
        returns: {},
        warnings: [],
      },
      "/p/generated/tool-schemas.ts",
    );
    expect(module).toContain('import { Customer as crm_Customer_ } from "../crm/customer.js";');
    expect(module).toContain('import { crm_Customer } from "../other.js";');
    expect(module).toContain('"crm.Customer": crm_Customer_');
  });

  it("two providers with one name and one prefix are refused, naming both files", () => {
    const dir = scratchProject(
      { "a/customer.ts": customer("crm"), "b/customer.ts": customer("crm") },
      "**/*.ts",
    );
    const files = ["a/customer.ts", "b/customer.ts"].map((f) => path.join(dir, f));
    // No lib and no generator: only the checker's view of the two files is needed.
    const program = ts.createProgram(files, { experimentalDecorators: true, noLib: true, types: [] });
    const checker = program.getTypeChecker();
    const sources = files.map((f) => program.getSourceFile(f)!);
    const classes = new SourceClasses(checker, SharedClassNames.of(sources, checker, dir));
    const add = (file: ts.SourceFile) =>
      sources.flatMap((f) => (f === file ? findToolMethods(f, checker, classes) : []));
    expect(add(sources[0]!)[0]!.className).toBe("crm.Customer");
    const second = () => add(sources[1]!);
    expect(second).toThrow(SchemaSourceError);
    expect(second).toThrow(
      /two classes are named crm\.Customer \(in .*a\/customer\.ts and .*b\/customer\.ts\)/,
    );
    expect(second).toThrow(/give same-named @ToolProvider classes different prefixes/);
  });

  it("the CLI's --type names a shared class by its key, and refuses its bare name listing the keys", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    const dir = scratchProject(
      {
        "search/result.ts": "/** A search hit. */\nexport class Result { title!: string; }\n",
        "math/result.ts": "/** A computed value. */\nexport class Result { value!: number; at!: Date; }\n",
      },
      "**/*.ts",
    );
    const args = ["schemas", "--project", path.join(dir, "tsconfig.json"), "--out", path.join(dir, "s.ts")];
    try {
      expect(main([...args, "--type", "Result"])).toBe(1);
      expect(error).toHaveBeenCalledWith(
        "entity-tools schemas: --type Result: 2 exported classes of the project are named Result: ask for the " +
          "one you mean by its key in the module, --type math/result.Result or --type search/result.Result",
      );
      expect(main([...args, "--type", "math/result.Result"])).toBe(0);
      const written = readModuleMeaning(readFileSync(path.join(dir, "s.ts"), "utf8"))!;
      expect(written.outputs).toEqual({
        "math/result.Result": {
          description: "A computed value.",
          type: "object",
          properties: { value: { type: "number" }, at: { type: "string", format: "date-time" } },
          additionalProperties: false,
          required: ["at", "value"],
        },
      });
      expect(written.classes).toEqual({ "math/result.Result": { class: "./math/result.js#Result" } });
    } finally {
      vi.restoreAllMocks();
    }
  }, 0); // a generation: no time limit
});
