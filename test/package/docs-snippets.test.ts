// Every TypeScript block of README.md and docs/*.md, as a new user copies it: each one a file of its own in
// a project made by `tsc --init` (the latest TypeScript's defaults: strict, exactOptionalPropertyTypes,
// nodenext), type-checked (not run) with TypeScript 7 and 5.9 against the packed tarball. What a snippet
// takes as given (the domain classes, a `runner`, a `model`) is declared once in
// test/fixtures/docs-snippets/context.d.ts; its imports are checked as written. Skipped: the README's
// quick start (quick-start.test.ts compiles and runs it) and blocks marked `<!-- snippet: partial (why) -->`
// (docs/contributing.md). Beside them, test/fixtures/docs-snippets/options-given-undefined.ts gives every
// optional option a user passes in, and every optional field of a value a user writes for us, `undefined`.
// Each lane checks against the AI SDK npm gives a user on its Node (ai 6 on Node 20, ai 7 on Node 22:
// README_PROJECT_DEPENDENCIES); TypeScript 5.9 on the first lane only (which Node runs tsc changes nothing).
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerProject, README_PROJECT_DEPENDENCIES } from "../support/consumer-project.js";

const exec = promisify(execFile);
const nodeMajor = Number(process.versions.node.split(".")[0]);

interface Snippet {
  /** Where it is: `docs/testing.md:17` (the line of its first line of code). */
  readonly where: string;
  /** The file it becomes: `testing-17.ts`. */
  readonly file: string;
  readonly code: string;
}

/** A fenced `ts` block, with the HTML comment right before it if any, at any indentation (list items). */
const BLOCK = /(?:<!-- ([^>]*?) -->\s*\n)?( *)```ts\n([\s\S]*?)\n *```/g;

function docsSnippets(): { checked: Snippet[]; partial: string[] } {
  const pages = [
    "README.md",
    ...readdirSync("docs")
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const checked: Snippet[] = [];
  const partial: string[] = [];
  for (const page of pages) {
    const text = readFileSync(page, "utf8");
    for (const match of text.matchAll(BLOCK)) {
      const [whole, comment, indent, code] = match;
      const line = text.slice(0, match.index + whole.indexOf("```")).split("\n").length + 1;
      const where = `${page}:${line}`;
      if (comment?.startsWith("quick-start:")) continue;
      if (comment?.startsWith("snippet: partial")) {
        partial.push(`${where} ${comment}`);
        continue;
      }
      const file = `${path.basename(page, ".md")}-${line}.ts`;
      const lines = code!.split("\n").map((l) => l.slice(indent!.length));
      // `export {}` makes each file a module: its own scope, and top-level await.
      checked.push({ where, file, code: `${lines.join("\n")}\nexport {};\n` });
    }
  }
  return { checked, partial };
}

let scratch = "";
let project = "";

beforeAll(async () => {
  scratch = await consumerProject(README_PROJECT_DEPENDENCIES);
  project = path.join(scratch, "docs");
  mkdirSync(path.join(project, "snippets"), { recursive: true });
  writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "docs", private: true, type: "module" }),
  );
  await exec(process.execPath, [path.join(scratch, "node_modules/typescript/bin/tsc"), "--init"], {
    cwd: project,
  });
  const tsconfig = path.join(project, "tsconfig.json");
  const config = readFileSync(tsconfig, "utf8")
    // The README's one change for Node (Install): tsc lowers standard decorators.
    .replace('"target": "esnext"', '"target": "es2022"')
    // What `tsc --init`'s comment says to do for Node: its types (process.env).
    .replace('"types": []', '"types": ["node"]')
    .replace('"compilerOptions": {', '"include": ["snippets"],\n  "compilerOptions": {\n    "noEmit": true,');
  expect(config).toContain('"types": ["node"]');
  writeFileSync(tsconfig, config);
  copyFileSync("test/fixtures/docs-snippets/context.d.ts", path.join(project, "snippets/context.d.ts"));
  // Not a snippet: every optional input option given `undefined`, checked by the same tsc runs.
  copyFileSync(
    "test/fixtures/docs-snippets/options-given-undefined.ts",
    path.join(project, "snippets/options-given-undefined.ts"),
  );
}, 300_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe(`the docs' TypeScript snippets, with ai ${nodeMajor >= 22 ? 7 : 6}`, () => {
  const { checked, partial } = docsSnippets();

  it("are found, and every block left out says why", () => {
    expect(checked.length).toBeGreaterThanOrEqual(20);
    for (const block of partial) expect(block).toMatch(/snippet: partial \(.+\)/);
  });

  it.each([
    ["TypeScript 7", "typescript/bin/tsc"],
    ...(nodeMajor >= 22
      ? []
      : [["TypeScript 5.9", "typescript-json-schema/node_modules/typescript/bin/tsc"]]),
  ])(
    "type-check with %s and tsc --init's defaults",
    async (_name, tsc) => {
      for (const { file, code } of checked) writeFileSync(path.join(project, "snippets", file), code);
      const result = await exec(process.execPath, [path.join(scratch, "node_modules", tsc), "-p", "."], {
        cwd: project,
      }).then(
        () => "",
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      // Each error named by its page and line, for the one who fixes it.
      const byFile = new Map(checked.map((s) => [s.file, s.where]));
      const errors = result.replace(
        /^snippets\/([\w.-]+\.ts)\((\d+),\d+\)/gm,
        (all, file: string, line: string) =>
          byFile.has(file) ? `${byFile.get(file)} (+${Number(line) - 1} lines)` : all,
      );
      expect(errors).toBe("");
    },
    120_000,
  );
});
