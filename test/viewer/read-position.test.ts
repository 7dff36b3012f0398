// How the page reads the open run's file as it changes (no browser: the decisions alone). A file that grew
// is read from where the last whole line ended, with the check of what was read; one that did not grow, or
// whose last read was made while it was changing (a write in the same clock tick keeps its stamp), is
// checked whole; one that shrank below what was read, or has another first line, is read from its start.
import { describe, expect, it } from "vitest";
import { ReadPosition, type FileRead } from "../../src/viewer/page/read-position.js";

/** The fingerprint of run a's first line (the server's, from the list and from a read from the start). */
const HEAD = "hash-of-run-a";
const file = (size: number, stamp: string, headHash = HEAD) => ({ size, stamp, headHash });
const read = (from: number, next: number, settled: boolean, headHash = from === 0 ? HEAD : ""): FileRead => ({
  text: "…",
  from,
  next,
  check: `check-${next}`,
  settled,
  headHash,
});

/** A position that read a 100-byte file (its last whole line ending at 90) at stamp `s1`. */
function readOnce(settled: boolean): ReadPosition {
  const position = new ReadPosition();
  expect(position.request(file(100, "s1"))).toEqual({ from: 0, whole: false });
  position.took(read(0, 90, settled), file(100, "s1"));
  return position;
}

describe("ReadPosition", () => {
  it("a file that grew is read from where the last whole line ended, the bytes before checked by their tail", () => {
    const position = readOnce(true);
    expect(position.changed(file(100, "s1"))).toBe(false);
    expect(position.changed(file(150, "s2"))).toBe(true);
    expect(position.request(file(150, "s2"))).toEqual({ from: 90, check: "check-90", whole: false });
  });

  it("a file read while it was changing is read again at the next refresh, checked whole, though its size and stamp are the same", () => {
    const position = readOnce(false);
    expect(position.changed(file(100, "s1"))).toBe(true);
    expect(position.request(file(100, "s1"))).toEqual({ from: 90, check: "check-90", whole: true });
    position.took(read(90, 90, true), file(100, "s1"));
    expect(position.changed(file(100, "s1"))).toBe(false);
  });

  it("a file with another stamp that did not grow (rewritten in place, touched) is checked whole", () => {
    const position = readOnce(true);
    expect(position.request(file(100, "s2"))).toEqual({ from: 90, check: "check-90", whole: true });
    expect(position.request(file(95, "s2"))).toEqual({ from: 90, check: "check-90", whole: true });
  });

  it("a file shorter than what was read, or with another first line, is read from its start; another run says so", () => {
    const position = readOnce(true);
    expect(position.request(file(80, "s2"))).toEqual({ from: 0, whole: false });
    const other = file(300, "s2", "hash-of-run-b");
    expect(position.changed(other)).toBe(true);
    expect(position.request(other)).toEqual({ from: 0, whole: false });
    // The same run read again from its start (the check failed) is the same run; another first line is not.
    expect(position.took(read(0, 200, true), file(300, "s2"))).toBe(false);
    expect(position.took(read(0, 290, true, "hash-of-run-b"), other)).toBe(true);
    // A file with no whole first line yet has no fingerprint: nothing to tell another run by.
    expect(position.took(read(0, 0, true, ""), file(10, "s3", ""))).toBe(false);
  });
});
