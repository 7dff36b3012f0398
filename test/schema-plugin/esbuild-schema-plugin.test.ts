// The esbuild plugin (the Vite/vitest one is tested in a consumer project: test/package/schema-plugin.test.ts):
// an esbuild context writes the module at its first build, and a rebuild after a tool's parameter type
// changed writes it again before bundling, so the bundle imports the fresh module; also when the source
// was rewritten with its size and modified time as they were (within one tick of a coarse clock, or by a
// tool that restores the modified time). A project with same-named classes gets what the CLI writes.
import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build, context } from "esbuild";
import { expect, it } from "vitest";
import { readModuleMeaning } from "../../src/schema/module-meaning.js";
import { esbuildSchemaPlugin } from "../../src/schema-plugin/index.js";
import { scratchProject } from "../support/scratch-project.js";
import { tempDir } from "../support/temp-dir.js";

const TOOLS = `declare function LlmTool(d: string): MethodDecorator;
export class Counter {
  @LlmTool("Count up") count(step: number): string { return String(step); }
}
`;

it("esbuild: the module is written at the first build and again at a rebuild after a parameter's type changed, also with the same size and modified time", async () => {
  const dir = scratchProject(
    { "src/tools.ts": TOOLS, "src/main.ts": 'export { toolSchemas } from "./generated/tool-schemas.js";\n' },
    "src",
  );
  const out = path.join(dir, "src/generated/tool-schemas.ts");
  const bundle = path.join(dir, "dist/main.js");
  const built = await context({
    entryPoints: [path.join(dir, "src/main.ts")],
    bundle: true,
    outfile: bundle,
    format: "esm",
    external: ["entity-tools"],
    logLevel: "silent",
    plugins: [esbuildSchemaPlugin({ project: path.join(dir, "tsconfig.json"), out })],
  });
  try {
    await built.rebuild();
    expect(readFileSync(bundle, "utf8")).toMatch(/"step": \{\s*"type": "number"/);
    // A file system whose clock ticks in seconds: the source's modified time is a whole second.
    const source = path.join(dir, "src/tools.ts");
    const second = Math.floor(Date.now() / 1000) - 60;
    writeFileSync(source, TOOLS.replace("step: number", "step: string"));
    utimesSync(source, second, second);
    await built.rebuild();
    expect(readFileSync(out, "utf8")).toMatch(/"step": \{\s*"type": "string"/);
    expect(readFileSync(bundle, "utf8")).toMatch(/"step": \{\s*"type": "string"/);
    // Rewritten within that second: back to `number` (as many bytes as `string`), the same modified time.
    writeFileSync(source, TOOLS);
    utimesSync(source, second, second);
    await built.rebuild();
    expect(readFileSync(bundle, "utf8")).toMatch(/"step": \{\s*"type": "number"/);
  } finally {
    await built.dispose();
  }
}, 600_000); // a compiler run per build: minutes on a loaded machine, but never a hang

it("esbuild: a project with two same-named output and parameter classes gets the module the CLI writes, each with its own schema", async () => {
  const dir = tempDir("same-named-");
  const out = path.join(dir, "tool-schemas.ts");
  writeFileSync(path.join(dir, "main.ts"), "export {};\n");
  await build({
    entryPoints: [path.join(dir, "main.ts")],
    bundle: true,
    write: false,
    logLevel: "silent",
    plugins: [esbuildSchemaPlugin({ project: "test/fixtures/contexts/tsconfig.json", out })],
  });
  const written = readModuleMeaning(readFileSync(out, "utf8"))!;
  const committed = readModuleMeaning(
    readFileSync("test/fixtures/contexts/generated/tool-schemas.ts", "utf8"),
  )!;
  expect(Object.keys(written.outputs as object)).toEqual([
    "billing/customer.Summary",
    "crm/customer.Summary",
  ]);
  expect(written.outputs).toEqual(committed.outputs);
  expect(written.tools).toEqual(committed.tools);
}, 600_000);
