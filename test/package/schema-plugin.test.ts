// The schema plugin as a user meets it: a consumer project made from the packed tarball, with vitest
// (the latest major this Node runs) and the plugin in its vitest.config.ts. Its committed schema module is
// stale (the tool gained a parameter after it was generated), which would fail every test with
// StaleToolSchemaError; `vitest --watch` passes because the plugin writes the module before the first
// transform, and passes again after an edit of the tool's parameters, because the plugin writes it again
// before the re-run. The config type-checks against vitest's own types.
import { execFile, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { consumerProject } from "../support/consumer-project.js";

const exec = promisify(execFile);
const nodeMajor = Number(process.versions.node.split(".")[0]);

const GREETER = `import { LlmTool } from "entity-tools";

export class Greeter {
  @LlmTool("Greet someone")
  greet(name: string): string {
    return \`Hello \${name}\`;
  }
}
`;

const FILES: Record<string, string> = {
  "package.json": JSON.stringify({ name: "greeter", private: true, type: "module" }),
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      target: "es2022",
      module: "nodenext",
      strict: true,
      experimentalDecorators: true,
      skipLibCheck: true,
      noEmit: true,
      types: [],
    },
    include: ["src", "vitest.config.ts"],
  }),
  "vitest.config.ts": `import { defineConfig } from "vitest/config";
import { schemaPlugin } from "entity-tools/schema-plugin";

export default defineConfig({
  plugins: [schemaPlugin({ project: "tsconfig.json", out: "src/generated/tool-schemas.ts" })],
});
`,
  "src/greeter.ts": GREETER,
  "src/greeter.test.ts": `import { registerToolSchemas } from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { expect, it } from "vitest";
import { toolSchemas } from "./generated/tool-schemas.js";
import { Greeter } from "./greeter.js";

registerToolSchemas(toolSchemas);

it("greets", async () => {
  const fake = new FakePromptRunner();
  fake.callTool("greet", { name: "Ada" }).respondWithText("done");
  await fake.withTools(new Greeter()).run("Greet Ada");
  expect(fake.steps[0]?.calls[0]?.resultText).toBe("Hello Ada");
});
`,
};

let project = "";
/** The watcher's temporary folder. */
let watcherTmp = "";
const bin = (name: string, ...args: string[]) =>
  exec(process.execPath, [path.join(project, "node_modules", name), ...args], { cwd: project });

beforeAll(async () => {
  // The install is kept for the next run with the same package (test/support/consumer-project.ts).
  project = await consumerProject([
    "ai@^6",
    "@ai-sdk/provider@^3",
    "typescript@~5.9.3",
    "typescript-json-schema@0.68.0",
    nodeMajor >= 22 ? "vitest@^5" : "vitest@^4",
  ]);
  watcherTmp = `${project}-tmp`;
  mkdirSync(watcherTmp);
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    writeFileSync(path.join(project, file), text);
  }
  // The module as it was committed, then the tool gains a parameter: the module is stale.
  const out = "src/generated/tool-schemas.ts";
  await bin(".bin/entity-tools", "schemas", "--project", "tsconfig.json", "--out", out);
  writeFileSync(
    path.join(project, "src/greeter.ts"),
    GREETER.replace("greet(name: string)", 'greet(name: string, punctuation = "")').replace(
      "${name}`",
      "${name}${punctuation}`",
    ),
  );
}, 0); // npm pack and install: no time limit (minutes on a loaded machine; the work is bounded)

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(watcherTmp, { recursive: true, force: true });
});

const parameters = () =>
  /"Greeter\.greet": \{\s*"parameters": \[([^\]]*)\]/.exec(
    readFileSync(path.join(project, "src/generated/tool-schemas.ts"), "utf8"),
  )?.[1];

it("the config type-checks: the plugin is a vitest (Vite) plugin", async () => {
  await bin("typescript/bin/tsc", "-p", "tsconfig.json");
}, 0);

it("vitest --watch runs on a module the plugin wrote first, and again after the tool's parameters change", async () => {
  expect(parameters()).not.toContain("punctuation"); // stale as committed
  const child = spawn(process.execPath, [path.join(project, "node_modules/vitest/vitest.mjs"), "--watch"], {
    cwd: project,
    // TMPDIR: vitest's folder in the OS temporary folder (a random name), which a killed watcher leaves
    // behind, goes with the project's (outside the project, where the watcher would see it).
    env: { ...process.env, CI: "", NO_COLOR: "1", TMPDIR: watcherTmp },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let waiting: (() => void) | undefined;
  const onData = (chunk: Buffer) => {
    output += stripVTControlCharacters(chunk.toString()); // (colours, if any)
    waiting?.();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  /** The summary line of the `count`-th run ("Test Files  1 passed (1)" or with failures). */
  const summary = (count: number) =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const lines = output.split("\n").filter((l) => /^\s*Test Files\s/.test(l));
        if (lines.length >= count) resolve(lines[count - 1]!.trim());
        else if (child.exitCode !== null) reject(new Error(`vitest exited:\n${output}`));
      };
      waiting = look;
      child.once("exit", look);
      look();
    });
  try {
    expect(await summary(1), output).toMatch(/^Test Files\s+1 passed/);
    expect(parameters()).toContain('"punctuation"');

    const source = path.join(project, "src/greeter.ts");
    writeFileSync(
      source,
      readFileSync(source, "utf8").replace('punctuation = ""', 'punctuation = "", loud = false'),
    );
    expect(await summary(2), output).toMatch(/^Test Files\s+1 passed/);
    expect(parameters()).toContain('"loud"');
    expect(output).not.toContain("StaleToolSchemaError");
  } finally {
    child.kill();
  }
}, 0);
