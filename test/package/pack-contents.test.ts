// What `npm publish` would ship: the build, its types and source maps (with their sources inlined, so
// they resolve), the docs the README links to, the licence; no tests, fixtures, benches or examples.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

describe("the packed package", () => {
  it("ships the build, types, maps with sources, docs and LICENSE, and nothing of the repository's own", async () => {
    const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--loglevel=error"]);
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "README.md",
        "package.json",
        "dist/src/index.js",
        "dist/src/index.d.ts",
        "dist/src/index.js.map",
        "dist/src/testing/index.js",
        "dist/src/codex/index.js",
        "dist/src/mcp/index.js",
        "dist/src/claude/index.js",
        "dist/src/postgres/index.js",
        "docs/postgres-conversation-store.sql",
        "dist/src/building-blocks/index.js",
        "dist/src/cli.js",
        "dist/src/viewer/page/viewer.js",
        "dist/src/viewer/page/index.html",
        "dist/src/viewer/page/viewer.css",
        "docs/run-log.schema.json",
        "docs/run-viewer.md",
        "docs/architecture.md",
        "docs/reliability.md",
        "docs/glossary.md",
      ]),
    );
    const stray = files.filter((f) =>
      /^(test|bench|examples|lanes|src|decorators|etc|scripts|docs\/api)\/|\.test\.|fixtures/.test(f),
    );
    expect(stray).toEqual([]);
    // The root entry's bundle maps back to src/index.ts, whose text is in the map.
    const map = JSON.parse(readFileSync("dist/src/index.js.map", "utf8")) as {
      sources: string[];
      sourcesContent?: string[];
    };
    const index = map.sources.indexOf("../../src/index.ts");
    expect(map.sourcesContent?.[index]).toContain('import "../decorators/reflect-metadata.cjs";');
  });
});
