// Small files with one concept each: no file of the library (src/, decorators/) is over 300 lines. A file
// that grows past it is split by concept (docs/contributing.md), not trimmed of its comments.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const MAX_LINES = 300;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(c|m)?ts$/.test(entry.name) ? [file] : [];
  });
}

describe("the library's files", () => {
  it(`are each at most ${MAX_LINES} lines`, () => {
    const over = ["src", "decorators"]
      .flatMap(sourceFiles)
      .map((file) => ({ file, lines: readFileSync(file, "utf8").trimEnd().split("\n").length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines}`);
    expect(over).toEqual([]);
  });
});
