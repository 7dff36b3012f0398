// The viewer's run list in headless Chromium as a folder changes under it (one browser and one server for
// the file): a refresh draws only the runs that were added or changed, and reads only their lines; the
// other runs keep their elements, so the focus, the selection and the reader's place stay, in the list and
// in the open run beside it. And a run rewritten in place at the same size and modification time is shown
// anew, in the list and in its panel, and one rewritten longer with the same first line is read anew. A
// run with no end record shows what it did so far (steps, tokens, cost), marked running while it is written
// and unfinished once it went quiet (a crash), in the list, in its panel and in an exported page. A page
// whose viewer stopped says so, and reads what changed when it is back.
import { appendFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { writeHtmlExport } from "../../src/viewer/html-export.js";
import { startViewServer } from "../../src/viewer/view-server.js";
import { runHeaderLine } from "../support/run-log-header.js";
import { tempDir } from "../support/temp-dir.js";
import { focusedElement, hasFocus, openPage, scrollY } from "../support/viewer-browser.js";
import { viewerInChromium } from "../support/viewer-in-chromium.js";

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
/** Steps `from`..`to` of a priced run, each answered (1,000 tokens in, 400 of them cached; $0.003). */
const answeredSteps = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => {
    const step = from + i;
    const usage = { inputTokens: 1000, outputTokens: 20, cachedInputTokens: 400, reasoningTokens: 0 };
    const tools = step === 1 ? { tools: ["a"] } : {};
    return [
      { type: "step", step, iteration: step, ms: step, count: 1, ...tools },
      { type: "response", step, ms: step, durationMs: 1, usage, cost: 0.003, calls: [{ tool: "a" }] },
      { type: "call", step, ms: step, id: `call_${step}`, tool: "a", ok: true, durationMs: 1 },
    ].map((line) => `${JSON.stringify(line)}\n`);
  })
    .flat()
    .join("");
const RUNS = 40;
const LIVE = RUNS - 1; // the newest run: still going, 50 steps so far

const view = viewerInChromium("viewer run list browser test", "viewer-list-", {
  write: (folder) => {
    for (let n = 0; n < RUNS; n++)
      writeFileSync(path.join(folder, run(n).name), `${run(n).head}\n${n === LIVE ? steps(50) : end(3)}\n`);
  },
});
const { root } = view;

const item = (n: number) => `.run-item[data-file="${run(n).name}"]`;
const top = (page: Page, selector: string) => page.$eval(selector, (e) => e.getBoundingClientRect().top);
const listScroll = (page: Page) => page.$eval("#runs", (list) => list.scrollTop);
/** The texts the page parsed as JSON since the last call. */
const parsedSince = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { parsed: string[] }).parsed.splice(0));

describe.skipIf(!view.present)("the viewer's run list as the folder changes", () => {
  it("a new run and a run that ended are drawn and read; the others keep their elements, the focus, the selection and their place, and are not parsed again", async () => {
    const live = run(LIVE);
    const { page, errors } = await view.open(`#${live.name}`, (page) =>
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
    const { page, errors } = await view.open(`#${rewritten.name}`);
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
    const { page, errors } = await view.open(`#${rewritten.name}`);
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

  it("a run still going shows its steps, tokens and cost so far, marked running, as it grows; its end's figures when it ends", async () => {
    const going = run(200);
    const file = path.join(root, going.name);
    writeFileSync(file, `${going.head}\n${answeredSteps(1, 3)}`);
    const { page, errors } = await view.open(`#${going.name}`);
    const row = `.run-item[data-file="${going.name}"]`;
    const status = async () => [
      await page.textContent(`${row} .status`),
      await page.textContent("h2 .status"),
    ];
    expect(await status()).toEqual(["running", "running"]);
    expect(await page.textContent(row)).toContain("running turn 1 · 3 steps · $0.009000 so far");
    expect(await page.textContent(".facts")).toContain(
      "3 model calls so far · 3,000 in (40% cached) · 60 out · cost $0.009000 so far",
    );

    expect(await page.textContent(".progress")).toBe("Step 3: 1 of 1 tool call ended");
    // Step 4, line by line: asked, answered, its call ended.
    const [asked, answered, called] = answeredSteps(4, 4).split(/(?<=\n)/);
    appendFileSync(file, asked!);
    await page.waitForSelector('.progress:has-text("Step 4: waiting for the model\'s answer")');
    appendFileSync(file, answered!);
    await page.waitForSelector('.progress:has-text("Step 4: 0 of 1 tool call ended")');
    appendFileSync(file, called!);
    await page.waitForSelector(`${row}:has-text("4 steps · $0.0120 so far")`);
    await page.waitForSelector('.facts:has-text("4 model calls so far · 4,000 in (40% cached)")');

    const usage = { inputTokens: 4000, outputTokens: 80, cachedInputTokens: 1600, reasoningTokens: 0 };
    const ended = {
      type: "end",
      ms: 9,
      status: "completed",
      totalIterations: 4,
      steps: 4,
      usage,
      cost: 0.012,
    };
    appendFileSync(file, `${JSON.stringify(ended)}\n`);
    await page.waitForSelector(`${row} .status.completed`);
    await page.waitForSelector('h2 .status:has-text("completed")');
    expect(await page.textContent(row)).toContain("completed turn 1 · 4 steps · $0.0120");
    expect(await page.textContent(row)).not.toContain("so far");
    expect(await page.$$eval(".progress", (all) => all.length)).toBe(0);
    expect(await page.textContent(".facts")).toContain(
      "4 model calls · 4,000 in (40% cached) · 80 out · cost $0.0120",
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a run cut by a crash (no end record, nothing written for an hour) is unfinished, with what it did and what the page cannot tell, served and exported", async () => {
    const crashed = run(201);
    const file = path.join(root, crashed.name);
    // The last line cut short: the process stopped while writing it.
    writeFileSync(file, `${crashed.head}\n${answeredSteps(1, 2)}{"type":"step","st`);
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(file, hourAgo, hourAgo);
    const row = `.run-item[data-file="${crashed.name}"]`;
    // The time alone when it is today's (the list and the panel say it alike).
    const today = hourAgo.toDateString() === new Date().toDateString();
    const since = `nothing written since ${today ? hourAgo.toLocaleTimeString("en-US") : hourAgo.toLocaleString("en-US")}`;
    const served = await view.open(`#${crashed.name}`);
    const { page } = served;
    expect(await page.textContent(`${row} .status`)).toBe("unfinished");
    expect(await page.textContent(row)).toContain(`unfinished turn 1 · 2 steps · $0.006000 so far`);
    expect(await page.textContent(`${row} .unfinished-note`)).toBe(` — ${since}`);
    expect(await page.textContent("h2 .status")).toBe("unfinished");
    expect(await page.textContent("p.unfinished-note")).toBe(
      `${since}: its process stopped, or a call is slow`,
    );
    expect(await page.textContent(".facts")).toContain("2 model calls so far");

    // Written again (it was a slow call): running again, in the list and in its panel.
    appendFileSync(file, `ep":3,"iteration":3,"ms":3,"count":1}\n`);
    await page.waitForSelector(`${row} .status.running`);
    await page.waitForSelector('h2 .status:has-text("running")');
    expect(await page.$$eval("p.unfinished-note", (all) => all.length)).toBe(0);
    expect(await page.textContent(row)).toContain("3 steps · $0.006000 so far");
    expect(served.errors).toEqual([]);
    await page.close();

    // An exported page cannot tell whether it still ran: it says so.
    const out = path.join(tempDir("viewer-export-"), "crashed.html");
    await writeHtmlExport(path.join(root, crashed.name), out);
    const exported = await openPage(view.browser, `file://${out}`, true);
    const note = "no end record";
    expect(await exported.page.textContent(row)).toContain("unfinished turn 1 · 3 steps · $0.006000 so far");
    expect(await exported.page.textContent(`${row} .unfinished-note`)).toBe(` — ${note}`);
    expect(await exported.page.textContent("p.unfinished-note")).toBe(
      `${note}: its process stopped, or it still ran when this page was made`,
    );
    expect([...exported.errors, ...exported.blocked]).toEqual([]);
    await exported.page.close();
  });

  it("when the viewer stops, the page says it is not connected and keeps what it shows; started again, it is live and shows what changed meanwhile", async () => {
    const stopped = await startViewServer(root, { port: 0 });
    // The page's own timers on a clock the test moves (its slow poll of a server that is away).
    const { page, errors } = await openPage(view.browser, stopped.url, false, (page) => page.clock.install());
    const listed = () => page.$$eval(".run-item", (all) => all.length);
    const shown = await listed();
    expect(await page.textContent("#live")).toBe("● live");
    await stopped.close();
    await page.waitForSelector("#live.offline");
    expect(await page.textContent("#live")).toBe("○ not connected: the viewer stopped? (retrying)");
    // Its poll finds no server: nothing thrown, nothing lost.
    const polled = page.waitForEvent("requestfailed", (r) => new URL(r.url()).pathname === "/api/runs");
    await page.clock.fastForward(5_000);
    await polled;
    expect(await listed()).toBe(shown);
    const added = run(300);
    writeFileSync(path.join(root, added.name), `${added.head}\n${end(1)}\n`);
    const again = await startViewServer(root, { port: Number(new URL(stopped.url).port) });
    try {
      expect(again.url).toBe(stopped.url);
      await page.waitForSelector(item(300));
      expect(await page.textContent("#live")).toBe("● live");
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await again.close();
    }
  });
});
