// A recording adds each call in one write over the cassette file's end; a process killed inside that write
// leaves the file cut. Such a file is read up to its last whole call, with a Node warning naming the file
// and what was cut, and a replay that asks for the cut call fails saying so (CI never passes with a call
// missing). Every place a kill can cut the write is tried, and a file truncated on disk is replayed.
import { readFileSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generateText, type LanguageModel } from "ai";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  CassetteError,
  ReplayLanguageModel,
  ReplayMismatchError,
  ScriptedLanguageModel,
  parseCassette,
  readCassette,
  recordModel,
} from "entity-tools/testing";
import { warnings } from "./support/node-warnings.js";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir("cassette-cut-");
const call = (model: LanguageModel, i: number) =>
  generateText({ model, prompt: `Question ${i}`, maxRetries: 0 });

afterEach(() => vi.restoreAllMocks());

/** The file after two calls and after three: what the third call's one write turned one into the other. */
let two: string;
let three: string;
const file = path.join(dir, "spend.json");
beforeAll(async () => {
  const scripted = new ScriptedLanguageModel();
  for (let i = 1; i <= 3; i++) scripted.respondWithText(`Answer ${i}: ${"spend ".repeat(20)}`);
  const model = recordModel(scripted, file);
  await call(model, 1);
  await call(model, 2);
  two = readFileSync(file, "utf8");
  await call(model, 3);
  three = readFileSync(file, "utf8");
});

describe("a cassette cut while a call was being added", () => {
  it("is read up to its last whole call wherever the write stopped, with a warning naming what was cut", () => {
    const at = Buffer.byteLength(two) - Buffer.byteLength("\n  ]\n}\n"); // where the third call's write began
    const written = Buffer.from(three).subarray(at);
    const old = Buffer.from(two);
    const seen = warnings();
    for (let k = 0; k < written.length; k++) {
      // On disk after `k` bytes of the write: those bytes over the old ones, what is left of the old end.
      const onDisk = Buffer.concat([old.subarray(0, at), written.subarray(0, k), old.subarray(at + k)]);
      const cassette = parseCassette(onDisk.toString("utf8"), "spend.json");
      const wholeThird = onDisk.toString("utf8").includes("Answer 3") && cassette.steps.length === 3;
      expect(cassette.steps.length === 2 || wholeThird, `cut after ${k} bytes`).toBe(true);
      expect(cassette.steps.map((s) => s.response.kind)).toEqual(cassette.steps.map(() => "generate"));
    }
    // Every cut that is not JSON said so (a cut inside the old end's bytes can still be the whole file).
    expect(seen.length).toBeGreaterThan(written.length - 20);
    expect(seen[100]).toMatch(
      /^ENTITY_TOOLS_CASSETTE_CUT: The cassette spend\.json was read up to step 2: after step 2, the file's last \d+ bytes \(part of step 3\) were cut off while it was being written \(a recording process killed while adding a call\)\. A replay that asks for step 3 fails; record it again\.$/,
    );
  });

  it("replays its whole calls from the file, then fails at the cut one naming the file and the cut", async () => {
    const cut = path.join(dir, "truncated.json");
    writeFileSync(cut, three);
    truncateSync(cut, Buffer.byteLength(three) - 200); // inside the third call
    const seen = warnings();
    const replay = await ReplayLanguageModel.fromFile(cut);
    expect(seen).toEqual([expect.stringContaining(`The cassette ${cut} was read up to step 2`)]);
    expect((await call(replay, 1)).text).toMatch(/^Answer 1: spend/);
    expect((await call(replay, 2)).text).toMatch(/^Answer 2: spend/);
    const failure = await call(replay, 3).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ReplayMismatchError);
    expect(failure).toMatchObject({ problem: "past-end", step: 3, file: cut });
    expect((failure as Error).message).toMatch(
      /past the end of the recording \(2 steps; after step 2, the file's last \d+ bytes \(part of step 3\) were cut off while it was being written, so the recording may have had more\)/,
    );
  });

  it("in a scripted model, ends its recorded turns with one that fails at the cut, before any later scripted turn", async () => {
    const cut = path.join(dir, "truncated-fake.json");
    writeFileSync(cut, three);
    truncateSync(cut, Buffer.byteLength(three) - 200);
    warnings();
    const model = new ScriptedLanguageModel()
      .playCassette(await readCassette(cut))
      .respondWithText("a later scripted turn");
    await call(model, 1);
    await call(model, 2);
    const failure = await call(model, 3).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ReplayMismatchError);
    expect((failure as Error).message).toContain(`Replay of ${cut}: the run asks the model for step 3`);
    expect(model.remainingTurns).toBe(1); // the later turn was not played in the cut call's place
  });

  it("in a scripted model after turns scripted before it, names the run's step and the recording's", async () => {
    const cut = path.join(dir, "truncated-later.json");
    writeFileSync(cut, three);
    truncateSync(cut, Buffer.byteLength(three) - 200);
    warnings();
    const model = new ScriptedLanguageModel()
      .respondWithText("first scripted turn")
      .respondWithText("second scripted turn")
      .playCassette(await readCassette(cut));
    for (let i = 1; i <= 4; i++) await call(model, i);
    const failure = await call(model, 5).catch((e: unknown) => e);
    expect(failure).toMatchObject({ problem: "past-end", step: 5, file: cut });
    expect((failure as Error).message).toContain(
      `Replay of ${cut}: the run asks the model for step 5, the recording's step 3 (it began at the run's ` +
        "step 3), past the end of the recording (2 steps; after step 2, the file's last ",
    );
  });

  it("a file damaged before its last whole call is still refused as not JSON", () => {
    const damaged = three.replace('"step": 2', '"step": 2,,');
    expect(() => parseCassette(damaged, "damaged.json")).toThrow(CassetteError);
    expect(() => parseCassette(damaged, "damaged.json")).toThrow(
      /^The cassette damaged\.json cannot be replayed: it is not JSON/,
    );
  });
});
