// A snapshot read back is checked whole against one schema before anything of it is used: every
// readable version passes; anything else is a SnapshotError that names what does not fit.
import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import { SnapshotError, type SectionVisibility } from "entity-tools";
import { checkRunSnapshot } from "../../../src/loop/snapshot/run-snapshot-schema.js";

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(`test/fixtures/snapshots/${name}.json`, "utf8")) as Record<string, unknown>;
const refusal = (value: unknown): string => {
  try {
    checkRunSnapshot(value);
  } catch (error) {
    expect(error).toBeInstanceOf(SnapshotError);
    return (error as SnapshotError).message;
  }
  return "accepted";
};

describe("run snapshot schema", () => {
  it.each(["run-snapshot-v1", "run-snapshot-v2", "v1-paused"])("accepts %s, written by a release", (name) => {
    expect(refusal(fixture(name))).toBe("accepted");
  });

  it("reads the section visibility of every readable version as RunSnapshot types it", () => {
    for (const name of ["run-snapshot-v1", "run-snapshot-v2"]) {
      const visibility = { policies: "FULL", "policies.refunds": "SUMMARY" };
      const stored: unknown = { ...fixture(name), visibility };
      checkRunSnapshot(stored);
      expectTypeOf(stored.visibility).toEqualTypeOf<Readonly<Record<string, SectionVisibility>>>();
      expect(stored.visibility).toEqual(visibility);
    }
  });

  it("names the format and the versions it reads before looking further", () => {
    expect(refusal({ history: [] })).toMatch(
      /^Not a run snapshot: expected format "entity-tools\/run-snapshot"/,
    );
    expect(refusal({ ...fixture("run-snapshot-v2"), version: 3 })).toMatch(
      /format version 3; this entity-tools reads versions 1 and 2 \(and writes 2\)/,
    );
  });

  it("names the fields that do not fit, five at most", () => {
    const spoiled = {
      ...fixture("run-snapshot-v2"),
      iterations: -1,
      visibility: { policies: "HIDDEN" },
      counters: {},
      usage: "many",
      settings: [],
      tools: "all",
    };
    const message = refusal(spoiled);
    expect(message).toContain('field "iterations" must be >= 0');
    expect(message).toContain('field "visibility.policies" must be one of ["FULL","SUMMARY"]');
    expect(message).toMatch(/\(and \d+ more\)\. Resume from a snapshot as a run returned it/);
    expect(message.split("; ")).toHaveLength(5);
  });

  it("refuses paused calls that do not follow their model message", () => {
    const paused = fixture("v1-paused");
    const history = (paused.history as unknown[]).slice(0, -1);
    expect(refusal({ ...paused, history })).toContain("the paused calls do not follow their model message");
  });

  // Codex runs a response's calls at once, each its own step: a pause can hold calls of several messages.
  it("reads waiting calls of several model messages (paused.more), each answered in the tool message after its own", () => {
    const base = fixture("v1-paused");
    const held = { toolCallId: "close-1", toolName: "order_o1_close", input: {} };
    const history = [
      ...(base.history as unknown[]),
      { role: "assistant", content: [{ type: "tool-call", ...held }] },
      { role: "tool", content: [] },
    ];
    const paused = { ...(base.paused as object), more: [{ iteration: 3, calls: [held] }] };
    expect(refusal({ ...base, history, paused })).toBe("accepted");
    expect(refusal({ ...base, history: history.slice(0, -2), paused })).toContain(
      'no tool message answers the call "close-1"',
    );
    expect(refusal({ ...base, history, paused: { ...paused, more: [{ iteration: 3 }] } })).toContain(
      'missing required field "paused.more.0.calls"',
    );
  });
});
