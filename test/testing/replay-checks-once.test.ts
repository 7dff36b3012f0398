// A cassette is checked against its schema once however it is loaded: `ReplayLanguageModel.fromFile` reads
// the file and leaves the check to the constructor (it checked the file twice, each a whole schema
// validation of a cassette that may hold thousands of steps). Counted by a spy on the checker.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CassetteError, ReplayLanguageModel, readCassette } from "entity-tools/testing";
import * as schema from "../../src/testing/replay/cassette-schema.js";

const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../src/testing/replay/cassette-schema.js", async (importOriginal) => {
  const original = await importOriginal<typeof schema>();
  const checkCassette: typeof original.checkCassette = (value, file) => {
    checks.count++;
    (original.checkCassette as (value: unknown, file: string) => void)(value, file);
  };
  return { ...original, checkCassette };
});
afterEach(() => (checks.count = 0));

const cassette = {
  format: "entity-tools/cassette",
  version: 1,
  model: { provider: "openai.responses", modelId: "gpt-test", specificationVersion: "v3" },
  steps: [
    {
      step: 1,
      request: { tools: [] },
      response: {
        kind: "generate",
        content: [{ type: "text", text: "Hello." }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } },
        warnings: [],
      },
    },
  ],
};
const dir = mkdtempSync(path.join(tmpdir(), "cassette-checks-"));
const fileOf = (name: string, value: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};

describe("loading a cassette", () => {
  it("ReplayLanguageModel.fromFile checks the file once, and plays it", async () => {
    const model = await ReplayLanguageModel.fromFile(fileOf("ok.json", cassette));
    expect(checks.count).toBe(1);
    expect([model.modelId, model.remainingSteps]).toEqual(["gpt-test", 1]);
  });

  it("a file that is not a cassette still fails with CassetteError naming it, after one check", async () => {
    const file = fileOf("bad.json", { ...cassette, steps: [{ step: 2 }] });
    const error = await ReplayLanguageModel.fromFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CassetteError);
    expect((error as Error).message).toContain(file);
    expect(checks.count).toBe(1);
  });

  it("readCassette and the constructor check once each", async () => {
    const read = await readCassette(fileOf("read.json", cassette));
    expect(checks.count).toBe(1);
    new ReplayLanguageModel(read);
    expect(checks.count).toBe(2);
  });
});
