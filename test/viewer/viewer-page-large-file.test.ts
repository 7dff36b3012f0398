// The page on a run file larger than one read of the server (64 MiB; set small here, so the suite writes
// no large file): it reads on until the file's end, shows every step, and names the one line longer than a
// read that it skipped, in a real headless Chromium. And a run whose header is longer than the run list
// reads of a first line (4 MiB: a prompt of megabytes) is listed with its time, in its conversation.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHeaderLine } from "../support/run-log-header.js";
import { texts } from "../support/viewer-browser.js";
import { viewerInChromium } from "../support/viewer-in-chromium.js";

const RUN = "2026-11-27T10-00-00-000Z-large.jsonl";
const LIMIT = 2_000;
const STEPS = 60;
/** A conversation older than RUN: its first turn's header holds a prompt of 5 MiB, its second goes on from it. */
const BIG = "2026-11-27T09-00-00-000Z-big.jsonl";
const NEXT = "2026-11-27T09-30-00-000Z-next.jsonl";
const BIG_STARTED = "2026-11-27T09:00:00.000Z";

const view = viewerInChromium("viewer large-file browser test", "viewer-large-", {
  folder: "runs",
  readLimit: LIMIT,
  write: (runs) => {
    mkdirSync(runs);
    const step = (n: number) => JSON.stringify({ type: "step", step: n, iteration: n, count: 0, tools: [] });
    const long = JSON.stringify({ type: "note", step: 30, message: "z".repeat(2 * LIMIT) });
    const lines = [runHeaderLine()];
    for (let n = 1; n <= STEPS; n++) lines.push(step(n), ...(n === 30 ? [long] : []));
    writeFileSync(path.join(runs, RUN), `${lines.join("\n")}\n`);
    const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 };
    const end = JSON.stringify({
      type: "end",
      ms: 1,
      status: "completed",
      totalIterations: 1,
      steps: 1,
      usage,
    });
    const header = (id: string, startedAt: string, more: object) =>
      JSON.stringify({ ...(JSON.parse(runHeaderLine(id, startedAt)) as object), ...more });
    const prompt = [{ role: "user", content: "x".repeat(5 * 1024 * 1024) }];
    writeFileSync(path.join(runs, BIG), `${header("big", BIG_STARTED, { prompt })}\n${end}\n`);
    const next = header("next", "2026-11-27T09:30:00.000Z", { kind: "continue", continues: "big" });
    writeFileSync(path.join(runs, NEXT), `${next}\n${end}\n`);
  },
});

describe.runIf(view.present)("the page on a run file larger than one read", () => {
  it("reads on to the file's end, shows every step, and names the line it skipped", async () => {
    const { page, errors } = await view.open();
    await page.waitForSelector(`body[data-steps="${STEPS}"]`);
    expect(await texts(page, ".problems li")).toEqual([
      expect.stringMatching(
        /^line 32 is \d+ bytes long, more than the viewer reads of a line \(2000\): skipped$/,
      ),
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("lists a run whose header is longer than the list reads (a 5 MiB prompt) with its start time, as turn 1 of its conversation", async () => {
    const { page, errors } = await view.open();
    const big = `.run-item[data-file="${BIG}"]`;
    await page.waitForSelector(big);
    const started = await page.evaluate((iso) => new Date(iso).toLocaleString(), BIG_STARTED);
    expect(await page.innerText(big)).toBe(`completed turn 1 · 1 step\n${started}`);
    // Its id put the turn that goes on from it in its conversation.
    const conversation = page.locator(".conversation", { has: page.locator(big) });
    expect(await conversation.locator(".conversation-label").innerText()).toBe("conversation · 2 runs");
    expect(await conversation.locator(`.run-item[data-file="${NEXT}"]`).innerText()).toContain("turn 2");
    expect(errors).toEqual([]);
    await page.close();
  });
});
