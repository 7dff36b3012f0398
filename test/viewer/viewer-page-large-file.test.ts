// The page on a run file larger than one read of the server (64 MiB; set small here, so the suite writes
// no large file): it reads on until the file's end, shows every step, and names the one line longer than a
// read that it skipped, in a real headless Chromium.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startViewServer, type ViewServer } from "../../src/viewer/view-server.js";
import { runHeaderLine } from "../support/run-log-header.js";
import { chromiumPresent, launchChromium, openPage, texts } from "../support/viewer-browser.js";

const present = chromiumPresent("viewer large-file browser test");
const root = mkdtempSync(path.join(tmpdir(), "viewer-large-"));
const RUN = "2026-11-27T10-00-00-000Z-large.jsonl";
const LIMIT = 2_000;
const STEPS = 60;
let browser: Browser;
let viewer: ViewServer;

beforeAll(async () => {
  if (!present) return;
  mkdirSync(path.join(root, "runs"));
  const step = (n: number) => JSON.stringify({ type: "step", step: n, iteration: n, count: 0, tools: [] });
  const long = JSON.stringify({ type: "note", step: 30, message: "z".repeat(2 * LIMIT) });
  const lines = [runHeaderLine()];
  for (let n = 1; n <= STEPS; n++) lines.push(step(n), ...(n === 30 ? [long] : []));
  writeFileSync(path.join(root, "runs", RUN), `${lines.join("\n")}\n`);
  viewer = await startViewServer(path.join(root, "runs"), { port: 0, readLimit: LIMIT });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  rmSync(root, { recursive: true, force: true });
});

describe.runIf(present)("the page on a run file larger than one read", () => {
  it("reads on to the file's end, shows every step, and names the line it skipped", async () => {
    const { page, errors } = await openPage(browser, viewer.url);
    await page.waitForSelector(`body[data-steps="${STEPS}"]`);
    expect(await texts(page, ".problems li")).toEqual([
      expect.stringMatching(
        /^line 32 is \d+ bytes long, more than the viewer reads of a line \(2000\): skipped$/,
      ),
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
