// A run's file keeps its lines as text until a write and measures their UTF-8 bytes only near the size
// limit: the lines before the `cut` note are every line that fits, in bytes, whether written at each line
// or many lines at once.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RunLogFile } from "../../src/run-log/run-log-file.js";

const dir = mkdtempSync(path.join(tmpdir(), "run-log-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Two bytes a character for "ü", four for the emoji: a line has more bytes than characters.
const line = (i: number) =>
  JSON.stringify({ type: "note", step: i, message: i % 2 ? "ünïcödé 🎉" : "plain" });
const LIMIT = 600;

/** How many of the lines fit in LIMIT bytes, each with its newline. */
function fitting(): number {
  let bytes = 0;
  let count = 0;
  while (bytes + Buffer.byteLength(line(count)) + 1 <= LIMIT) bytes += Buffer.byteLength(line(count++)) + 1;
  return count;
}

describe("RunLogFile's size limit", () => {
  it.each([
    ["written at each line", 1],
    ["written every 7 lines", 7],
    ["written once at the end", 1000],
  ])("keeps every line that fits, then the cut note, %s", (_case, every) => {
    const file = new RunLogFile({
      dir,
      id: `every-${every}`,
      limitBytes: LIMIT,
      keepOpen: true,
      onFailure: (message) => {
        throw new Error(message);
      },
    });
    for (let i = 0; i < 40; i++) {
      file.addLine(line(i), i);
      if (i % every === 0) file.flush();
    }
    file.close();
    const lines = readFileSync(file.path, "utf8").trimEnd().split("\n");
    const kept = lines.slice(0, -1);
    expect(kept).toEqual(Array.from({ length: fitting() }, (_, i) => line(i)));
    expect(Buffer.byteLength(kept.map((l) => `${l}\n`).join(""))).toBeLessThanOrEqual(LIMIT);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: "cut", limitBytes: LIMIT });
  });
});

describe("RunLogFile at its limit", () => {
  const refuse = (message: string) => {
    throw new Error(message);
  };

  it("keeps a line that ends exactly at the limit, with no cut note", () => {
    const lines = [line(0), line(1), line(2)];
    const text = lines.map((l) => `${l}\n`).join("");
    const file = new RunLogFile({
      dir,
      id: "exact",
      limitBytes: Buffer.byteLength(text),
      keepOpen: false,
      onFailure: refuse,
    });
    for (const [i, l] of lines.entries()) file.addLine(l, i);
    file.close();
    expect(readFileSync(file.path, "utf8")).toBe(text);
  });

  it("writes no media file once the log was cut, even one small enough to fit", () => {
    const file = new RunLogFile({
      dir,
      id: "cut-media",
      limitBytes: 300,
      keepOpen: false,
      onFailure: refuse,
    });
    file.addLine(JSON.stringify({ type: "note", step: 1, message: "x".repeat(400) }), 1);
    file.flush(); // the cut note is written: the file is well under its limit
    const media = file.mediaBytes({ type: "image", mediaType: "image/png" }, new Uint8Array(8));
    file.close();
    expect(media).toEqual({
      type: "image",
      mediaType: "image/png",
      skipped: "the run's size limit was reached",
    });
    expect(existsSync(path.join(dir, "cut-media.media"))).toBe(false);
  });
});
