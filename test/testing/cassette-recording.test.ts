// What recording a long run costs and leaves on disk: each model call writes only its own bytes (not the
// whole cassette again), and after every call the file is a whole cassette, byte for byte the documented
// format, that replays; a process killed mid-recording leaves the calls that had returned. A cassette
// deleted or replaced mid-recording is written whole again at the next call.
import { execFile } from "node:child_process";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { generateText, type LanguageModel } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReplayLanguageModel, ScriptedLanguageModel, parseCassette, recordModel } from "entity-tools/testing";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir("cassette-recording-");

/** Bytes handed to file writes (a `FileHandle`'s `write` and `writeFile`) from now on. */
async function countFileWrites(): Promise<{ readonly bytes: number }> {
  const probe = await open(path.join(dir, "probe"), "w");
  const prototype = Object.getPrototypeOf(probe) as Record<
    "write" | "writeFile",
    (...a: unknown[]) => unknown
  >;
  await probe.close();
  const counted = { bytes: 0 };
  const sizeOf = (data: unknown) =>
    typeof data === "string" ? Buffer.byteLength(data) : ArrayBuffer.isView(data) ? data.byteLength : 0;
  for (const method of ["write", "writeFile"] as const) {
    const original = prototype[method];
    vi.spyOn(prototype, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
      // write(buffer, offset, length, position) writes `length` bytes; write(string) and writeFile(data) all.
      counted.bytes += typeof args[2] === "number" ? args[2] : sizeOf(args[0]);
      return original.apply(this, args);
    });
  }
  return counted;
}

afterEach(() => vi.restoreAllMocks());

/** A model that answers each call with a different text of about 300 characters. */
function talkativeModel(calls: number): ScriptedLanguageModel {
  const model = new ScriptedLanguageModel();
  for (let i = 1; i <= calls; i++) model.respondWithText(`Answer ${i}: ${"spend and orders ".repeat(18)}`);
  return model;
}

const call = (model: LanguageModel, i: number) => generateText({ model, prompt: `Question ${i}` });

describe("recording a long run", () => {
  it("writes each call's bytes once: 200 calls write about the file's size, not 100 times it", async () => {
    const file = path.join(dir, "long.json");
    const model = recordModel(talkativeModel(200), file);
    const written = await countFileWrites();
    for (let i = 1; i <= 200; i++) await call(model, i);
    const size = readFileSync(file).byteLength;
    expect(written.bytes).toBeGreaterThanOrEqual(size); // the counter sees the cassette's writes
    expect(written.bytes).toBeLessThan(2 * size); // rewriting it whole per call wrote about 100 times it
  });

  it("leaves a whole cassette in the documented format after every call, which replays", async () => {
    const file = path.join(dir, "growing.json");
    const model = recordModel(talkativeModel(30), file);
    for (let i = 1; i <= 30; i++) {
      await call(model, i);
      const text = readFileSync(file, "utf8");
      const cassette = parseCassette(text, file);
      expect(cassette.steps.map((s) => s.step)).toEqual(Array.from({ length: i }, (_, n) => n + 1));
      expect(text).toBe(`${JSON.stringify(cassette, null, 2)}\n`); // two-space JSON, in its order
    }
    const replay = await ReplayLanguageModel.fromFile(file);
    const answers: string[] = [];
    for (let i = 1; i <= 30; i++) answers.push((await call(replay, i)).text);
    expect(answers[29]).toMatch(/^Answer 30: spend and orders/);
    expect(replay.remainingSteps).toBe(0);
  });

  it("writes the whole cassette again at the next call when the file was replaced mid-recording", async () => {
    const file = path.join(dir, "replaced.json");
    const model = recordModel(talkativeModel(4), file);
    for (let i = 1; i <= 3; i++) await call(model, i);
    const size = readFileSync(file).byteLength;
    writeFileSync(`${file}.other`, "x".repeat(size)); // another file of the same size, renamed over it
    renameSync(`${file}.other`, file);
    await call(model, 4);
    const cassette = parseCassette(readFileSync(file, "utf8"), file);
    expect(cassette.steps.map((s) => s.step)).toEqual([1, 2, 3, 4]);
  });

  it("writes the whole cassette again at the next call when the file was deleted mid-recording", async () => {
    const file = path.join(dir, "deleted.json");
    const model = recordModel(talkativeModel(4), file);
    for (let i = 1; i <= 3; i++) await call(model, i);
    rmSync(file);
    await call(model, 4);
    const cassette = parseCassette(readFileSync(file, "utf8"), file);
    expect(cassette.steps.map((s) => s.step)).toEqual([1, 2, 3, 4]);
  });
});

// The child runs on this lane's Node; on the ai 7 lane it resolves `ai` from the lane.
const lane = process.env.ENTITY_TOOLS_LANE === "ai7" ? ["--import", "./bench/lanes/ai7.mjs"] : [];

describe("a process killed while recording", () => {
  it("leaves a cassette of the calls that had returned, which replays", async () => {
    const file = path.join(dir, "killed.json");
    const child = promisify(execFile)(
      process.execPath,
      [...lane, "test/testing/support/record-child.mjs", file],
      { timeout: 60_000 },
    );
    await expect(child).rejects.toMatchObject({ signal: "SIGKILL" });
    const replay = await ReplayLanguageModel.fromFile(file);
    expect(replay.cassette.steps).toHaveLength(2);
    expect((await call(replay, 1)).text).toBe("First answer.");
    expect((await call(replay, 2)).text).toBe("Second answer.");
  });
});
