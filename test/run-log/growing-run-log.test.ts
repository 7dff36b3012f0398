// A run still going, read as the viewer's page reads it: a piece at each change, from where the last whole
// line ended (a line still being written comes again, whole, in the next piece). Read in pieces, the file
// is what one whole read makes of it, at every cut; and no whole line is read twice.
import { describe, expect, it } from "vitest";
import { GrowingRunLog, readRunLog } from "../../src/run-log/read-run-log.js";
import { runHeaderLine } from "../support/run-log-header.js";

const header = runHeaderLine();
const TEXT = [
  header,
  '{"type":"step","step":1,"iteration":1,"ms":1,"count":1,"tools":["searchCustomer"]}',
  '{"type":"response","step":1,"ms":2,"durationMs":1,"usage":{"inputTokens":10,"outputTokens":2,"cachedInputTokens":0,"reasoningTokens":0},"text":"Suche … 検索","calls":[{"tool":"searchCustomer"}]}',
  '{"type":"step",,"oops"',
  "",
  '{"type":"call","step":1,"ms":3,"id":"call_1","tool":"searchCustomer","ok":true,"input":{"q":"Zoë"},"result":"c123"}',
  '{"type":"added","step":1,"ms":4,"tools":["customer_c123_getAverageSpend"],"byTool":"searchCustomer","by":"call_1"}',
  '{"type":"step","step":2,"iteration":2,"ms":5,"count":2,"added":["customer_c123_getAverageSpend"]}',
  '{"type":"end","ms":6,"status":"completed","totalIterations":2,"usage":{"inputTokens":10,"outputTokens":2,"cachedInputTokens":0,"reasoningTokens":0}}',
].join("\n");

/** Reads `text` in pieces ending at `cuts`, as the page does; what each read gave. */
function readInPieces(text: string, cuts: readonly number[]) {
  const log = new GrowingRunLog();
  let next = 0; // where the next piece starts: after the last whole line
  return cuts.map((cut) => {
    const piece = text.slice(next, cut);
    log.append(piece);
    next += piece.lastIndexOf("\n") + 1;
    return log.read();
  });
}

describe("GrowingRunLog", () => {
  it("read in two pieces, cut anywhere (in a line too), is what one whole read makes of the file", () => {
    for (let cut = 0; cut <= TEXT.length; cut++) {
      const [first, whole] = readInPieces(TEXT, [cut, TEXT.length]);
      expect(first, `cut at ${cut}`).toEqual(readRunLog(TEXT.slice(0, cut)));
      expect(whole, `cut at ${cut}`).toEqual(readRunLog(TEXT));
    }
  });

  it("read in many pieces, a line split across several, is the same at every piece", () => {
    for (let step = 7; step < 120; step += 11) {
      const cuts = Array.from({ length: Math.ceil(TEXT.length / step) }, (_, i) =>
        Math.min(TEXT.length, (i + 1) * step),
      );
      const reads = readInPieces(TEXT, cuts);
      cuts.forEach((cut, i) => expect(reads[i], `pieces of ${step}`).toEqual(readRunLog(TEXT.slice(0, cut))));
    }
  });

  it("reads each whole line once: the records read before are kept, not parsed again", () => {
    const cut = TEXT.indexOf('{"type":"added"') + 10; // in the middle of the added record's line
    const [before, after] = readInPieces(TEXT, [cut, TEXT.length]);
    expect(before!.records.map((r) => r.type)).toEqual(["step", "response", "call"]);
    expect(after!.records.slice(0, 3)).toHaveLength(3);
    after!.records.slice(0, 3).forEach((record, i) => expect(record).toBe(before!.records[i]));
    expect(after!.header).toBe(before!.header);
  });

  it("a file of another format version is skipped whole, however it arrives", () => {
    const other = `${TEXT.replace('"version":1', '"version":2')}\n`;
    const reads = readInPieces(other, [40, 200, other.length]);
    for (const read of reads.slice(1))
      expect(read).toEqual({
        records: [],
        problems: [{ message: "the file is run log format version 2; this viewer reads version 1: skipped" }],
      });
  });
});
