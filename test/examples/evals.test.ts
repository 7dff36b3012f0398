// examples/evals as its header runs it: offline it replays the shipped recordings (with every network
// path refused) and prints the scores per binding mode side by side; and the shipped recordings are what
// record-offline.ts writes (the real @ai-sdk/openai provider against the local stand-in), byte for byte.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";

const run = promisify(execFile);
// Unset, not empty: @ai-sdk/openai 4 (ai 7) refuses an empty OPENAI_BASE_URL when it loads.
const { OPENAI_API_KEY: _key, OPENAI_BASE_URL: _url, ...offline } = process.env;
// On the ai 7 lane the scripts run on its Node with its `ai` and providers.
const lane = process.env.ENTITY_TOOLS_LANE === "ai7" ? ["--import", "./bench/lanes/ai7.mjs"] : [];
const tsx = (script: string, args: string[] = [], preload: string[] = []) =>
  run(process.execPath, ["--import", "tsx", ...lane, ...preload, script, ...args], {
    env: offline,
    timeout: 120_000,
  });

describe("examples/evals", () => {
  it("replays the shipped recordings with no network and prints the scores per binding mode", async () => {
    const { stdout } = await tsx(
      "examples/evals/eval.ts",
      [],
      ["--import", "./test/support/refuse-network.mjs"],
    );
    expect(stdout).toContain(
      "entity-tools eval · model: the recordings in examples/evals/recordings (replayed offline",
    );
    expect(stdout).toContain(
      [
        "prompt                per-instance   handles   deferred",
        "spend                 1.00           1.00      1.00",
        "orders                1.00           1.00      1.00",
        "smiths                0.67           0.67      0.67",
        "ahmed                 1.00           1.00      1.00",
        "mean                  0.92           0.92      0.92",
        "passed                3/4            3/4       3/4",
        "not offered           1              0         1",
        "offered, not chosen   0              1         0",
        "another entity        0              0         0",
      ].join("\n"),
    );
    // The budget of 2 left Jane Smith's tools out per instance; with handles they were there, not chosen.
    expect(stdout).toContain(
      "smiths · per-instance:\n  tool use: 2 of 3 expected call(s) made, score 0.67 (any order, other calls allowed)",
    );
    expect(stdout).toContain(
      "✗ /getAverageSpend$/ on Customer c456: not offered from step 1 on: a discovery or budget problem",
    );
    expect(stdout).toContain("✗ /getAverageSpend$/ on Customer c456: offered at step 2, not chosen");
  });

  it("ships the recordings record-offline.ts makes through the real provider and the stand-in", async () => {
    const out = tempDir("evals-");
    const { stdout } = await tsx("examples/evals/record-offline.ts", ["--recordings", out]);
    expect(stdout).toMatch(
      /^entity-tools eval · model: stand-in at http:\/\/127\.0\.0\.1:\d+\/v1, recorded to /,
    );
    const shipped = "examples/evals/recordings";
    // Recorded on ai 6 (spec V3); ai 7's provider answers the same through spec V4, and nothing else differs.
    const spec = (text: string) =>
      lane.length > 0 ? text.replace('"specificationVersion": "v3"', '"specificationVersion": "v4"') : text;
    for (const mode of ["per-instance", "handles", "deferred"]) {
      const files = readdirSync(path.join(shipped, mode)).sort();
      expect(readdirSync(path.join(out, mode)).sort()).toEqual(files);
      for (const file of files)
        expect(readFileSync(path.join(out, mode, file), "utf8"), `${mode}/${file}`).toBe(
          spec(readFileSync(path.join(shipped, mode, file), "utf8")),
        );
    }
  });
});
