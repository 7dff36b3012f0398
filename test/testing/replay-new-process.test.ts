// Issue 45's first "done when": a run recorded through the real @ai-sdk/openai Responses provider against
// a local HTTP stand-in replays in a new process that cannot reach any network, with the same answer, tool
// sets and calls; the same recording, replayed after a change that stops the discovery, fails naming the
// step and the tool that is missing.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { createOpenAI } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { RunRecorder, recordModel, startOpenAiResponsesMock } from "entity-tools/testing";
import { QUESTION, spendModel, spendRunner } from "./support/spend-agent.js";
import { tempDir } from "../support/temp-dir.js";

// The child runs on this lane's Node; on the ai 7 lane it resolves `ai` and the providers from the lane.
const lane = process.env.ENTITY_TOOLS_LANE === "ai7" ? ["--import", "./bench/lanes/ai7.mjs"] : [];

describe("a recorded run, replayed in a new process with the network refused", () => {
  it("gives the same answer, tool sets and calls; without the discovery it fails naming step 2 and the tool", async () => {
    const file = path.join(tempDir("replay-"), "spend.json");
    const mock = await startOpenAiResponsesMock(spendModel);
    const recorder = new RunRecorder();
    let result: unknown;
    try {
      const model = createOpenAI({ baseURL: mock.baseURL, apiKey: "sk-test" }).responses("gpt-test");
      result = (await spendRunner(recordModel(model, file), { observer: recorder.observe }).run(QUESTION))
        .result;
    } finally {
      await mock.close(); // nothing listens any more: the replay cannot have used it
    }

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--import",
        "tsx",
        ...lane,
        "--import",
        "./test/support/refuse-network.mjs",
        "test/testing/support/replay-child.ts",
        file,
      ],
      { timeout: 60_000 },
    );
    const child = JSON.parse(stdout) as Record<string, Record<string, unknown>>;
    expect(child.networkRefused).toBe(true);
    expect(child.asRecorded).toEqual({
      result,
      steps: recorder.steps.map((s) => ({
        offered: s.toolsOffered,
        calls: s.calls.map((c) => ({ tool: c.toolName, input: c.input, result: c.resultText })),
      })),
    });
    expect(child.asRecorded!.steps).toHaveLength(3);
    expect(child.withoutDiscovery).toMatchObject({
      error: "ModelCallError",
      cause: {
        name: "ReplayMismatchError",
        step: 2,
        problem: "tool-not-offered",
        missingTools: ["customer_c123_getAverageSpend"],
      },
    });
    expect(child.withoutDiscovery!.message).toContain(
      "step 2: the recording calls customer_c123_getAverageSpend, which this run does not offer at step 2. Offered now: searchCustomer, findCustomers",
    );
  });
});
