// A cassette is checked against its schema once however it is loaded and played: `readCassette` checks what
// it reads, and playing what it gave (`ReplayLanguageModel`, `playCassette`, `fromFile`, `loadCassette`)
// does not check it again (each check is a whole schema validation of a cassette that may hold thousands of
// steps). A cassette built or copied by hand is still checked when played. Counted by a spy on the checker.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  CassetteError,
  FakePromptRunner,
  ReplayLanguageModel,
  ScriptedLanguageModel,
  readCassette,
  type Cassette,
} from "entity-tools/testing";
import * as schema from "../../src/testing/replay/cassette-schema.js";
import { tempDir } from "../support/temp-dir.js";

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
const dir = tempDir("cassette-checks-");
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

  it("a cassette readCassette gave is not checked again when played, and keeps its file's name", async () => {
    const file = fileOf("read.json", cassette);
    const read = await readCassette(file);
    expect(checks.count).toBe(1);
    expect(new ReplayLanguageModel(read).file).toBe(file);
    new ScriptedLanguageModel().playCassette(read);
    await new FakePromptRunner().loadCassette(file);
    expect(checks.count).toBe(2); // readCassette's, and loadCassette's own read
  });

  it("a cassette built or copied by hand is checked when played, and refused when it does not fit", async () => {
    const read = await readCassette(fileOf("copied.json", cassette));
    checks.count = 0;
    new ReplayLanguageModel({ ...read, steps: read.steps.slice(0, 1) });
    expect(checks.count).toBe(1);
    const wrong = { ...read, steps: [{ ...read.steps[0]!, step: 2 }] } as Cassette;
    expect(() => new ReplayLanguageModel(wrong)).toThrow(CassetteError);
    expect(() => new ScriptedLanguageModel().playCassette(wrong)).toThrow(
      'field "steps.0.step" is 2, but steps are numbered 1, 2, 3… in order',
    );
  });

  it("what readCassette gave cannot be changed after its check (a copy can)", async () => {
    const read = await readCassette(fileOf("frozen.json", cassette));
    expect(() => ((read.steps as Cassette["steps"][number][]).length = 0)).toThrow(TypeError);
    expect(() => ((read.steps[0]!.request.tools as string[])[0] = "x")).toThrow(TypeError);
    expect(read.steps).toHaveLength(1);
  });
});
