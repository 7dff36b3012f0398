// Every error class any entry point exports is an EntityToolsError that names itself in a string a
// minifier cannot change. Entry points are read from package.json, so a new subpath is checked too.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EntityToolsError } from "../../src/errors/entity-tools-error.js";

const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  exports: Record<string, unknown>;
};
const entries = Object.keys(manifest.exports)
  .filter((key) => !key.endsWith(".json"))
  .map((key) => (key === "." ? "../../src/index.ts" : `../../src/${key.slice(2)}/index.ts`));

/** Every exported class that makes errors, with the entry and name it is exported under. */
async function exportedErrorClasses() {
  const found: { entry: string; exported: string; errorClass: Function }[] = [];
  for (const entry of entries) {
    const module = (await import(entry)) as Record<string, unknown>;
    for (const [exported, value] of Object.entries(module)) {
      if (typeof value === "function" && value.prototype instanceof Error)
        found.push({ entry, exported, errorClass: value });
    }
  }
  return found;
}

describe("the library's error classes", () => {
  it("are found in every entry point of package.json", async () => {
    const found = await exportedErrorClasses();
    expect(entries.length).toBeGreaterThanOrEqual(5);
    expect(found.map((f) => f.exported)).toEqual(
      expect.arrayContaining([
        "ToolLoopError",
        "ScriptError",
        "UnmetExpectationsError",
        "CodexAppServerError",
      ]),
    );
  });

  it("each extend EntityToolsError and declare their own errorName, equal to the exported name", async () => {
    const unbranded = (await exportedErrorClasses())
      .filter(
        ({ exported, errorClass }) =>
          !(errorClass === EntityToolsError || errorClass.prototype instanceof EntityToolsError) ||
          !Object.hasOwn(errorClass, "errorName") ||
          (errorClass as typeof EntityToolsError).errorName !== exported,
      )
      .map(({ entry, exported }) => `${exported} (${entry})`);
    expect(unbranded).toEqual([]);
  });

  it("never share a name between two different classes", async () => {
    const byName = new Map<string, Set<Function>>();
    for (const { errorClass } of await exportedErrorClasses()) {
      const name = (errorClass as typeof EntityToolsError).errorName;
      byName.set(name, (byName.get(name) ?? new Set()).add(errorClass));
    }
    expect([...byName].filter(([, classes]) => classes.size > 1).map(([name]) => name)).toEqual([]);
  });
});
