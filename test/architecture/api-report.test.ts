// The API report's rules (scripts/api-report.mjs): a public signature may use only types that some entry
// point of package.json exports, and every public member has TSDoc. Run against a two-entry package made
// here, so that the checks are exercised on declarations whose answer is known, in a couple of seconds.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const script = path.resolve("scripts/api-report.mjs");

const files: Record<string, string> = {
  "package.json": JSON.stringify({
    name: "fixture",
    version: "1.0.0",
    exports: { ".": { types: "./main.d.ts" }, "./extra": { types: "./extra.d.ts" } },
  }),
  "tsconfig.build.json": JSON.stringify({
    compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", types: [] },
    files: ["main.d.ts", "extra.d.ts"],
  }),
  "shared.d.ts": [
    "/** Exported by the root entry. */ export interface Shared { /** A. */ readonly a: string }",
    "/** Exported by no entry. */ export interface Unlisted { /** B. */ readonly b: string; readonly c: number }",
  ].join("\n"),
  "main.d.ts": [
    'import type { Shared } from "./shared.js";',
    'export type { Shared } from "./shared.js";',
    "/** Uses an exported type. */ export declare function main(): Shared;",
    "export declare function bare(): void;",
  ].join("\n"),
  "extra.d.ts": [
    'import type { Shared, Unlisted } from "./shared.js";',
    "/** Uses the root's type, and one no entry exports. */",
    "export declare function extra(shared: Shared): Unlisted;",
  ].join("\n"),
};

describe("the API report", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "api-report-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);

  it("fails on a type a public signature uses that no entry point exports (not on one another entry exports), and on a member without TSDoc", async () => {
    const failure = await run(process.execPath, [script, "--update"], { cwd: dir }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    // (The extractor also warns that it created the missing reports.)
    const complaints = failure!.stderr.split("\n").filter((line) => line.startsWith("The public API"));
    expect(complaints).toEqual([
      expect.stringMatching(
        /^The public API of "\." has members without TSDoc, .*: export function bare\(\): void;\./,
      ),
      expect.stringMatching(
        /^The public API of "\.\/extra" uses Unlisted \(extra\.d\.ts:3\), which no entry point/,
      ),
    ]);
  });
});
