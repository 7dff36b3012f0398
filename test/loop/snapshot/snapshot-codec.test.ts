// The one place a snapshot is signed and checked: a signature covers the snapshot's JSON form, whatever
// the order of its keys, and every key, `__proto__` included; the first key signs, any key verifies.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SnapshotError, SnapshotIntegrityError, type RunSnapshot } from "entity-tools";
import { readSnapshot, signSnapshot, snapshotKeys } from "../../../src/loop/snapshot/snapshot-codec.js";

const fixture = (): RunSnapshot =>
  JSON.parse(readFileSync("test/fixtures/snapshots/run-snapshot-v2.json", "utf8")) as RunSnapshot;
const keys = snapshotKeys(["a key of thirty-two characters!!", "an older key, also long enough"]);
const problemOf = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return SnapshotIntegrityError.isInstance(error) ? error.problem : error;
  }
  return "accepted";
};

describe("snapshot codec", () => {
  it("verifies the snapshot it signed after a JSON round trip, with its keys in any order", () => {
    const signed = signSnapshot(fixture(), keys);
    const reordered = Object.fromEntries(
      Object.entries(JSON.parse(JSON.stringify(signed)) as object).reverse(),
    );
    expect(readSnapshot(reordered, keys)).toEqual(signed);
  });

  it("refuses a snapshot one character away, and a `__proto__` key added to a message", () => {
    const signed = signSnapshot(fixture(), keys);
    const edited = JSON.parse(JSON.stringify(signed).replace('"amount":20', '"amount":21')) as unknown;
    expect(problemOf(() => readSnapshot(edited, keys))).toBe("altered");
    const smuggled = JSON.parse(
      JSON.stringify(signed).replace('{"role":"user",', '{"__proto__":{"x":1},"role":"user",'),
    );
    expect(problemOf(() => readSnapshot(smuggled, keys))).toBe("altered");
  });

  it("signs with the first key and accepts any: a snapshot of the old key reads after a rotation", () => {
    const old = signSnapshot(fixture(), snapshotKeys("an older key, also long enough"));
    expect(problemOf(() => readSnapshot(old, keys))).toBe("accepted");
    expect(
      problemOf(() =>
        readSnapshot(signSnapshot(fixture(), keys), snapshotKeys("another key, thirty chars long")),
      ),
    ).toBe("altered");
  });

  it("without keys, reads a snapshot as it is, after checking its shape", () => {
    expect(signSnapshot(fixture(), undefined)).toEqual(fixture());
    expect(problemOf(() => readSnapshot({ ...fixture(), iterations: -1 }, undefined))).toBeInstanceOf(
      SnapshotError,
    );
    expect(problemOf(() => readSnapshot([], keys))).toBe("not-an-object");
    expect(problemOf(() => readSnapshot(fixture(), keys))).toBe("unsigned");
  });
});
