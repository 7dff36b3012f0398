// The README's quick start as a new user meets it: pasted from README.md (so this fails when the README
// breaks) into consumer projects made by `tsc --init` with TypeScript 7, in both decorator modes, ESM and
// CommonJS, next to the packed tarball. Each project generates its schemas with the installed CLI,
// compiles with TypeScript 7 and type-checks with 5.9, runs a discovery flow with a hidden field and a
// Date output under node, and runs the README's own test with vitest 5 as a user does, `vitest run` beside
// what tsc wrote (vitest 5 needs Node 22: the ai 7 lane runs that part). The AI SDK is the one npm gives a
// user on the lane's Node: ai 6 on Node 20, ai 7 on Node 22. One npm install per lane serves every project.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerProject, README_PROJECT_DEPENDENCIES } from "../support/consumer-project.js";

const exec = promisify(execFile);
const nodeMajor = Number(process.versions.node.split(".")[0]);

/** The files the README's quick start marks with `<!-- quick-start: path -->`, by path. */
function quickStartFiles(): Record<string, string> {
  const readme = readFileSync("README.md", "utf8");
  const files: Record<string, string> = {};
  for (const match of readme.matchAll(/<!-- quick-start: (\S+) -->\s*```(?:ts|js)\n([\s\S]*?)\n```/g))
    files[match[1]!] = `${match[2]!}\n`;
  return files;
}

// Not from the README: the quick start's flow run by node, printing what the model read.
const CHECK = `import { FakePromptRunner } from "entity-tools/testing";
import { customers } from "./agent.js";
import { CustomerSearchTools, SpendAnswer } from "./domain.js";

async function main(): Promise<void> {
  const fake = new FakePromptRunner();
  const runner = fake.withTools(new CustomerSearchTools(customers)).withToolProviderDiscovery();
  fake
    .callTool("searchCustomer", { name: "John Smith" })
    .callTool(/^customer_.+_getAverageSpend$/)
    .respondWithObject({ customerName: "John Smith", averageMonthlySpend: 46.83, asOf: "2026-11-01T00:00:00Z" });
  const run = await runner.run("What is John Smith's average spend?", { output: SpendAnswer });
  console.log(JSON.stringify({
    history: run.conversationHistory,
    asOf: run.result?.asOf instanceof Date ? run.result.asOf.toISOString() : typeof run.result?.asOf,
    injected: run.injectedTools.map((t) => t.name),
  }));
}
void main();
`;

let scratch = "";
const bin = (cwd: string, file: string, ...args: string[]) =>
  exec(process.execPath, [path.join(scratch, "node_modules", file), ...args], { cwd });

beforeAll(async () => {
  // The README's install lines, shared with the docs' snippets and the other lane
  // (test/support/consumer-project.ts).
  scratch = await consumerProject(README_PROJECT_DEPENDENCIES);
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("every TypeScript block of the README's Install and quick start is a quick-start file, so each one is compiled below", () => {
  const readme = readFileSync("README.md", "utf8");
  const start = readme.indexOf("## Install");
  const quickStart = readme.indexOf("## Five-minute quick start");
  const end = readme.indexOf("\n## ", quickStart + 1);
  const blocks = readme.slice(start, end).match(/^\s*```ts$/gm) ?? [];
  expect(blocks.length).toBeGreaterThan(0);
  expect(Object.keys(quickStartFiles()).filter((f) => f.endsWith(".ts"))).toHaveLength(blocks.length);
});

// Node 20 (the first lane) builds the standard-decorator projects, the new default world (legacy ones are
// the installed-package tests'); the Node 22 lane builds all four and runs vitest 5 in each.
const projects = [
  { module: "module", decorators: "standard" },
  { module: "commonjs", decorators: "standard" },
  { module: "module", decorators: "legacy" },
  { module: "commonjs", decorators: "legacy" },
] as const;

describe.each(nodeMajor >= 22 ? projects : projects.slice(0, 2))(
  "the README quick start, $module, $decorators decorators",
  ({ module, decorators }) => {
    const name = `${module}-${decorators}`;

    it("installs beside TypeScript 7, compiles with 7 and 5.9, runs, and keeps the hidden field from the model", async () => {
      const project = path.join(scratch, name);
      mkdirSync(project);
      writeFileSync(
        path.join(project, "package.json"),
        JSON.stringify({ name, private: true, type: module }),
      );
      await bin(project, "typescript/bin/tsc", "--init");
      const tsconfig = path.join(project, "tsconfig.json");
      let config = readFileSync(tsconfig, "utf8");
      // CommonJS: TypeScript forbids `import` in a CommonJS file under verbatimModuleSyntax (README, Install).
      if (module === "commonjs")
        config = config.replace('"verbatimModuleSyntax": true', '"verbatimModuleSyntax": false');
      // Standard decorators: `target: esnext` leaves them in the output, and Node has none yet (README, Install).
      if (decorators === "standard") config = config.replace('"target": "esnext"', '"target": "es2022"');
      if (decorators === "legacy")
        config = config.replace(
          '"compilerOptions": {',
          '"compilerOptions": {\n    "experimentalDecorators": true,',
        );
      writeFileSync(tsconfig, config);
      const files = quickStartFiles();
      expect(Object.keys(files)).toEqual(
        expect.arrayContaining(["src/domain.ts", "src/agent.ts", "src/agent.test.ts", "vitest.config.ts"]),
      );
      const vitestConfig = files["vitest.config.ts"]!;
      delete files["vitest.config.ts"];
      // Legacy decorators load in vitest 5 as they are: their projects leave the plugin out (README, step 4).
      const legacyConfig = vitestConfig
        .replace(/^import \{ transform \} from "esbuild";\n/m, "")
        .replace(/\n {2}plugins: \[\n[\s\S]*?\n {2}\],/, "");
      expect(legacyConfig).not.toMatch(/esbuild|plugins/);
      // A CommonJS project names it .mts, or Vite loads it as CommonJS (README, step 4).
      files[module === "commonjs" ? "vitest.config.mts" : "vitest.config.ts"] =
        decorators === "legacy" ? legacyConfig : vitestConfig;
      for (const [file, text] of Object.entries({ ...files, "src/check.ts": CHECK })) {
        mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
        writeFileSync(path.join(project, file), text);
      }

      await bin(
        project,
        ".bin/entity-tools",
        "schemas",
        "--project",
        "tsconfig.json",
        "--out",
        "src/generated/tool-schemas.ts",
      );
      await bin(project, "typescript/bin/tsc", "-p", "tsconfig.json");
      await bin(
        project,
        "typescript-json-schema/node_modules/typescript/bin/tsc",
        "-p",
        "tsconfig.json",
        "--noEmit",
      );

      const { stdout } = await exec(process.execPath, ["src/check.js"], { cwd: project });
      const report = JSON.parse(stdout) as { history: unknown[]; asOf: string; injected: string[] };
      const read = JSON.stringify(report.history);
      expect(read).toContain("John Smith"); // the customer the model found...
      expect(read).not.toContain("monthlyTotals"); // ...without the @Hidden repository
      expect(read).not.toContain("52.16");
      expect(report.asOf).toBe("2026-11-01T00:00:00.000Z");
      expect(report.injected).toEqual(["customer_c123_getAverageSpend", "customer_c123_recentTotals"]);
    }, 240_000);

    it.runIf(nodeMajor >= 22)(
      "the README's test passes under vitest 5, run as a user runs it, beside the JavaScript tsc wrote",
      async () => {
        const project = path.join(scratch, name);
        // vitest keeps a folder in the OS temporary folder (a random name) that it leaves behind: it goes
        // with the scratch folder instead.
        const tmp = path.join(project, "tmp");
        mkdirSync(tmp, { recursive: true });
        const { stdout, stderr } = await exec(
          process.execPath,
          [path.join(scratch, "node_modules", "vitest/vitest.mjs"), "run"],
          { cwd: project, env: { ...process.env, TMPDIR: tmp } },
        );
        // src/agent.test.ts, not tsc's agent.test.js
        expect(stripVTControlCharacters(stdout)).toMatch(/Test Files\s+1 passed \(1\)/);
        expect(stderr).toBe(""); // no warning from Vite about how it loaded the config
      },
      120_000,
    );
  },
);
