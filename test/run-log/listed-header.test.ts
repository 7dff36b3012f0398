// What the run list reads of a run's first line: the header's fields that say which run it is, never its
// content; from a header longer than what was read, every field that ends within it (the writer writes
// them before the prompt), whatever the strings before the cut hold.
import { describe, expect, it } from "vitest";
import { listedHeader } from "../../src/run-log/listed-header.js";
import { readRunLog } from "../../src/run-log/read-run-log.js";
import { runHeaderLine } from "../support/run-log-header.js";

const header = {
  ...(JSON.parse(runHeaderLine('r"1,}{', "2026-11-27T10:00:00.000Z")) as object),
  continues: "r0",
};
const written = JSON.stringify({
  ...header,
  prompt: [{ role: "user", content: 'a "quoted", {braced} [text]' }],
  system: "s",
});

describe("listedHeader", () => {
  it("keeps a header's fields in their order, without its prompt and system prompt", () => {
    expect(listedHeader(written, true)).toBe(JSON.stringify(header));
  });

  it("reads the fields that end within the start of a header cut anywhere in its prompt", () => {
    const promptAt = written.indexOf(',"prompt"'); // from the comma that ends the fields before it
    for (let cut = promptAt + 1; cut < written.length - 1; cut++)
      expect(readRunLog(`${listedHeader(written.slice(0, cut), false)}\n`).header, `cut at ${cut}`).toEqual(
        header,
      );
    // Cut within the id: the fields before it only (no header to show, as with no header at all).
    expect(listedHeader(written.slice(0, written.indexOf('"id"') + 8), false)).toBe(
      '{"type":"run","format":"entity-tools/run-log","version":1}',
    );
  });

  it("a first line that is no JSON object stays one, cut short; the start of one that is not an object is none", () => {
    expect(listedHeader("not json", true)).toBe("not json");
    const long = `{"type":"run",${"x".repeat(5_000)}`;
    expect(readRunLog(`${listedHeader(long, true)}\n`).problems).toEqual([
      { line: 1, message: "line 1 is not JSON: skipped" },
    ]);
    expect(listedHeader(long, true).length).toBeLessThan(1_100);
    expect(listedHeader("y".repeat(5_000), false)).toBe("");
  });
});
