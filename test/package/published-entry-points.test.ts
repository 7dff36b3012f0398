import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

// `npm test` builds before the suite; this checks what a user's `import "entity-tools"` resolves to.
describe("the built package, imported by its own name (npm test builds first)", () => {
  it("has been built", () => expect(existsSync("dist/src/index.js"), "run npm run build first").toBe(true));

  it("exports the runtime API from entity-tools and the testing kit from entity-tools/testing", async () => {
    const script = `
      const core = await import("entity-tools");
      const testing = await import("entity-tools/testing");
      console.log(JSON.stringify({
        core: ["PromptRunner", "ToolProvider", "LlmTool", "ToolParam", "defineTool", "registerToolSchemas",
               "ToolProviderStrategy", "MaxIterationsExceededError", "ToolNotFoundError", "InvalidToolProviderError"]
               .filter((name) => typeof core[name] !== "function"),
        testing: ["FakePromptRunner", "ScriptedLanguageModel"].filter((name) => typeof testing[name] !== "function"),
        fakeInCore: "FakePromptRunner" in core,
      }));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual({ core: [], testing: [], fakeInCore: false });
  });

  it("ships the schema CLI as the entity-tools bin", async () => {
    const { stderr } = await run(process.execPath, ["dist/src/schema/cli.js", "--help"]).catch(
      (e: { stderr: string }) => e,
    );
    expect(stderr).toContain("Usage: entity-tools schemas --project tsconfig.json");
  });
});
