// The viewer's run list in headless Chromium as a folder changes under it (one browser and one server for
// the file): a refresh draws only the runs that were added or changed, and reads only their lines; the
// other runs keep their elements, so the focus, the selection and the reader's place stay, in the list and
// in the open run beside it. And a run rewritten in place at the same size and modification time is shown
// anew, in the list and in its panel, and one rewritten longer with the same first line is read anew.
import { appendFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startViewServer, type ViewServer } from "../../src/viewer/view-server.js";
import { runHeaderLine } from "../support/run-log-header.js";
import {
  chromiumPresent,
  focusedElement,
  hasFocus,
  launchChromium,
  openPage,
  scrollY,
} from "../support/viewer-browser.js";

const present = chromiumPresent("viewer run list browser test");
const root = mkdtempSync(path.join(tmpdir(), "viewer-list-"));
let browser: Browser;
let viewer: ViewServer;

/** Run `n`'s file name and first line: runs start a minute apart, so run 0 is the oldest. */
const run = (n: number) => {
  const startedAt = new Date(Date.UTC(2026, 2, 1, 0, n)).toISOString();
  return {
    name: `${startedAt.replaceAll(/[:.]/g, "-")}-run${n}.jsonl`,
    head: runHeaderLine(`r${n}`, startedAt),
  };
};
const end = (steps: number) =>
  JSON.stringify({
    type: "end",
    ms: 5,
    status: "completed",
    totalIterations: steps,
    usage: { inputTokens: 10, outputTokens: 2, cachedInputTokens: 0, reasoningTokens: 0 },
  });
/** Steps 1..`steps` of a run, each offered one tool. */
const steps = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      type: "step",
      step: i + 1,
      iteration: i + 1,
      ms: i,
      count: 1,
      ...(i ? {} : { tools: ["a"] }),
    }),
  ).join("\n");
const RUNS = 40;
const LIVE = RUNS - 1; // the newest run: still going, 50 steps so far

beforeAll(async () => {
  if (!present) return;
  for (let n = 0; n < RUNS; n++)
    writeFileSync(path.join(root, run(n).name), `${run(n).head}\n${n === LIVE ? steps(50) : end(3)}\n`);
  viewer = await startViewServer(root, { port: 0 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  rmSync(root, { recursive: true, force: true });
});

const item = (n: number) => `.run-item[data-file="${run(n).name}"]`;
const top = (page: Page, selector: string) => page.$eval(selector, (e) => e.getBoundingClientRect().top);
const listScroll = (page: Page) => page.$eval("#runs", (list) => list.scrollTop);
/** The texts the page parsed as JSON since the last call. */
const parsedSince = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { parsed: string[] }).parsed.splice(0));

describe.skipIf(!present)("the viewer's run list as the folder changes", () => {
  it("a new run and a run that ended are drawn and read; the others keep their elements, the focus, the selection and their place, and are not parsed again", async () => {
    const live = run(LIVE);
    const { page, errors } = await openPage(browser, `${viewer.url}#${live.name}`, false, (page) =>
      page.addInitScript(() => {
        const parsed: string[] = [];
        const parse = JSON.parse;
        Object.assign(globalThis, { parsed });
        JSON.parse = (text: string, reviver?: (key: string, value: unknown) => unknown) => {
          parsed.push(text);
          return parse(text, reviver) as unknown;
        };
      }),
    );
    // In the list: run 5, far down, has the focus (the list scrolled to it).
    await page.focus(item(5));
    const focused = await focusedElement(page);
    const placed = await top(page, item(5));
    expect(await listScroll(page)).toBeGreaterThan(0);
    const other = await page.$(item(20));
    await parsedSince(page);

    const added = run(RUNS);
    writeFileSync(path.join(root, added.name), `${added.head}\n${end(1)}\n`);
    appendFileSync(path.join(root, live.name), `${end(50)}\n`);
    await page.waitForSelector(item(RUNS));
    await page.waitForSelector(`${item(LIVE)} .status.completed`);
    expect(await other!.evaluate((b) => b.isConnected)).toBe(true);
    expect(await hasFocus(page, focused)).toBe(true);
    expect(Math.abs((await top(page, item(5))) - placed)).toBeLessThan(1);
    expect(await page.getAttribute(item(LIVE), "aria-current")).toBe("true");
    const parsed = await parsedSince(page);
    expect(parsed).toContain(added.head);
    const unchanged = Array.from({ length: LIVE }, (_, n) => run(n).head);
    expect(parsed.filter((text) => unchanged.includes(text))).toEqual([]);

    // In the open run: step 45, far down, has the focus (the page scrolled to it). A run added beside it
    // moves nothing there.
    await page.focus('li[data-step="45"] .step-head');
    const step = await focusedElement(page);
    const [stepAt, scrolled] = [await top(page, 'li[data-step="45"]'), await scrollY(page)];
    expect(scrolled).toBeGreaterThan(0);
    const newer = run(RUNS + 1);
    writeFileSync(path.join(root, newer.name), `${newer.head}\n${end(1)}\n`);
    await page.waitForSelector(item(RUNS + 1));
    expect(await hasFocus(page, step)).toBe(true);
    expect(await scrollY(page)).toBe(scrolled);
    expect(await top(page, 'li[data-step="45"]')).toBe(stepAt);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a run rewritten in place at the same size and modification time is shown anew, in the list and in its panel", async () => {
    const rewritten = run(100);
    const file = path.join(root, rewritten.name);
    const written = new Date("2026-03-02T00:00:00.000Z");
    writeFileSync(file, `${rewritten.head}\n${end(3)}\n`);
    utimesSync(file, written, written);
    const { page, errors } = await openPage(browser, `${viewer.url}#${rewritten.name}`);
    const row = `.run-item[data-file="${rewritten.name}"]`;
    expect(await page.textContent(row)).toContain("3 steps");
    expect(await page.textContent(".facts")).toContain("3 model calls");

    writeFileSync(file, `${rewritten.head}\n${end(4)}\n`);
    utimesSync(file, written, written);
    await page.waitForSelector(`${row}:has-text("4 steps")`, { timeout: 10_000 });
    await page.waitForSelector('.facts:has-text("4 model calls")', { timeout: 10_000 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a run rewritten longer with the same first line is read anew, not as if it had grown, in the same panel", async () => {
    const rewritten = run(101);
    const file = path.join(root, rewritten.name);
    writeFileSync(file, `${rewritten.head}\n${steps(3)}\n`);
    const { page, errors } = await openPage(browser, `${viewer.url}#${rewritten.name}`);
    await page.waitForSelector('body[data-steps="3"]');
    await page.click('li[data-step="2"] .step-head');

    // Steps 1–5, each offered two tools: had the page read on after the three steps it read, it would
    // show what it read from the middle of a line on, after the steps of the file that is no more.
    const other = steps(5).replaceAll('"count":1', '"count":2');
    writeFileSync(file, `${rewritten.head}\n${other}\n${end(5)}\n`);
    await page.waitForSelector('section.run[data-status="completed"]', { timeout: 10_000 });
    expect(await page.$$eval(".step", (all) => all.map((s) => s.getAttribute("data-step")))).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
    ]);
    expect(await page.textContent('li[data-step="1"] .step-head')).toContain("2 tools");
    // The same run (its first line): the step opened stays open.
    expect(await page.getAttribute('li[data-step="2"] .step-head', "aria-expanded")).toBe("true");
    expect(await page.$$eval(".problems", (all) => all.length)).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
