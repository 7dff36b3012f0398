// The run viewer's page in a real headless Chromium (Debian's `chromium`, as the web-chat test drives it):
// one browser and one server for the file, on one folder that holds a discovery conversation with pricing,
// a picture and an approval, damaged files, and a 2 000-step run that discovered 10 000 providers. The
// README's screenshot is made here (UPDATE_SCREENSHOTS=1 writes docs/run-viewer.png).
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ElementHandle, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { defineTool } from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { writeHtmlExport } from "../../src/viewer/html-export.js";
import { writeLongRun } from "../support/long-run-log.js";
import { runHeaderLine } from "../support/run-log-header.js";
import { discoveryConversation } from "../support/run-log-runs.js";
import {
  focusAt,
  focusedElement,
  hasFocus,
  openPage,
  scrollY,
  show,
  texts,
} from "../support/viewer-browser.js";
import { viewerInChromium } from "../support/viewer-in-chromium.js";

let files: string[] = [];
let conversation: Awaited<ReturnType<typeof discoveryConversation>>;
let longRun = "";
const DAMAGED = "2026-01-01T00-00-00-000Z-damage.jsonl";
const NEWER_FORMAT = "2026-01-01T00-00-00-000Z-future.jsonl";

const view = viewerInChromium("viewer page browser test", "viewer-page-", {
  folder: "runs",
  write: async (runs) => {
    conversation = await discoveryConversation(runs);
    files = readdirSync(runs)
      .filter((f) => f.endsWith(".jsonl"))
      .sort();
    longRun = writeLongRun(runs);
  },
});
const { root, served: dir } = view;

/**
 * Steps `from`..`to` of a run still going, one call each, as its log holds them (after its header when
 * `from` is 1).
 */
function liveRunLines(from: number, to: number): string {
  const usage = { inputTokens: 120, outputTokens: 8, cachedInputTokens: 100, reasoningTokens: 0 };
  const lines: object[] = [];
  for (let step = from; step <= to; step++)
    lines.push(
      step === 1
        ? {
            type: "step",
            step,
            iteration: step,
            ms: step,
            count: 3,
            tools: ["lookup", "search_a", "search_b"],
          }
        : { type: "step", step, iteration: step, ms: step, count: 3 },
      { type: "response", step, ms: step, durationMs: 1, usage, text: "", calls: [{ tool: "lookup" }] },
      { type: "call", step, ms: step, id: `call_${step}`, tool: "lookup", ok: true, durationMs: 1 },
    );
  const header = from === 1 ? `${runHeaderLine("live", "2026-02-01T00:00:00.000Z")}\n` : "";
  return header + lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

/**
 * A run that restarted five times, once for each cause and once in a file written before the cause was
 * recorded: steps 2, 4 and 5 are offered another tool list than the step before, step 3 the same one.
 */
function restartedRunLines(): string {
  const step = (n: number, count: number, change: object) => ({
    type: "step",
    step: n,
    iteration: n,
    ms: n,
    count,
    ...change,
  });
  const restart = (n: number, fields: object) => ({ type: "restart", step: n, ...fields });
  const lines = [
    step(1, 2, { tools: ["lookup", "read_section"] }),
    { type: "call", step: 1, ms: 1, id: "call_1", tool: "read_section", ok: true },
    restart(1, {
      cause: "expansion",
      sections: ["policies.warranty", "policies"],
      reason: "policies.warranty unlocks warranty_check",
      tools: ["warranty_check"],
    }),
    step(2, 3, { added: ["warranty_check"] }),
    {
      type: "response",
      step: 2,
      ms: 2,
      durationMs: 1,
      modelId: "gpt-5",
      responseModelId: "gpt-5-2025-08-07",
      usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 },
      calls: [{ tool: "warranty_check" }],
    },
    {
      type: "call",
      step: 2,
      ms: 2,
      id: "call_2",
      tool: "warranty_check",
      ok: false,
      reason: "threw",
      result: 'The call of "warranty_check" failed in the server',
      cause: "StrategyError: the warranty service refused key sk-1",
    },
    restart(2, { cause: "strategy", reason: "a fresh start" }),
    step(3, 3, { added: [], removed: [] }),
    { type: "added", step: 3, tools: ["customer_c1_orders"], byTool: "lookup", by: "call_3" },
    { type: "call", step: 3, ms: 3, id: "call_3", tool: "lookup", ok: true },
    restart(3, {
      cause: "new-thread",
      reason: "this backend cannot add customer_c1_orders to a running thread",
      tools: ["customer_c1_orders"],
    }),
    step(4, 4, { added: ["customer_c1_orders"] }),
    restart(4, {
      cause: "fallback",
      reason: "customer_c1_orders was not listed in time",
      tools: ["customer_c1_orders"],
    }),
    step(5, 3, { removed: ["warranty_check"] }),
    restart(5, { reason: "an older writer's restart" }),
  ];
  return (
    [runHeaderLine("restarts", "2026-02-01T00:00:00.000Z"), ...lines.map((l) => JSON.stringify(l))].join(
      "\n",
    ) + "\n"
  );
}

let damagedWritten = false;
/**
 * Writes the damaged file and the newer format's (once, when a test first needs them; not in beforeAll,
 * so that the tests before the damaged files' own, the README's screenshot among them, list no such runs).
 */
function writeDamagedFiles(): void {
  if (damagedWritten) return;
  damagedWritten = true;
  // A crash's file: a corrupt line in the middle, the last line cut short, a picture that is not there.
  const lines = readFileSync(path.join(dir, files[0]!), "utf8").trimEnd().split("\n");
  const damaged = lines.map((l) =>
    l.replace(/"file":"[^"]+"/, '"file":"2026-01-01T00-00-00-000Z-damage.media/1.png"'),
  );
  damaged.splice(3, 0, '{"type":"step",,"oops"');
  writeFileSync(
    path.join(dir, DAMAGED),
    `${damaged.slice(0, -1).join("\n")}\n${damaged.at(-1)!.slice(0, 30)}`,
  );
  writeFileSync(path.join(dir, NEWER_FORMAT), `${lines[0]!.replace('"version":1', '"version":2')}\n`);
}

/** What both the served page and the exported file must show of the discovery conversation. */
async function expectDiscoveryConversation(page: Page) {
  const [paused, resumed] = files;
  await show(page, paused!);
  expect(await texts(page, 'li[data-step="2"] .changes .added')).toEqual([
    "+ customer_c123_getAverageSpend, + customer_c123_recentOrders — from searchCustomer at step 1, Customer c123",
  ]);
  expect(await texts(page, 'li[data-step="2"] .cache-broken')).toEqual([
    "prompt cache broken here: the tool list changed",
  ]);
  expect(await texts(page, 'li[data-step="3"] .approval')).toEqual([
    '… waits for approval: issueStoreCredit {\n  "customerId": "c123",\n  "amount": 10\n}',
  ]);
  expect(await page.textContent(".facts")).toContain("cost $0.001002");
  expect(await texts(page, ".provider-costs li")).toEqual([
    "Customer c123 · $0.000031 · 1 call · 186 definition + 9 result tokens",
  ]);
  await page.click('li[data-step="2"] .step-head');
  const chart = page.locator('li[data-step="2"] .call-detail[data-tool="spendChart"] img');
  await chart.waitFor();
  // The element is in the page before its picture has loaded: wait for the decoded picture, not a time.
  const width = await chart.evaluate(async (img) => {
    const picture = img as unknown as { decode(): Promise<void>; naturalWidth: number };
    await picture.decode();
    return picture.naturalWidth;
  });
  expect(width).toBe(96);
  // Each box of a call says what it holds: the input the model gave, the result it read back.
  expect(await texts(page, 'li[data-step="2"] .call-detail .field-label')).toEqual([
    "input",
    "result",
    "input",
    "result",
  ]);
  await show(page, resumed!);
  // The resumed run's steps by the run's numbers (its file's from 1): the decided call, then step 4.
  expect(await texts(page, ".step-head strong")).toEqual(["Before step 4", "Step 4"]);
  expect(await texts(page, ".approval")).toEqual(["✔ approved: issueStoreCredit"]);
  expect(await texts(page, 'li[data-step="0"] .call')).toEqual([
    expect.stringMatching(/^✓ issueStoreCredit/),
  ]);
  // Each run's own model calls, beside its own tokens and cost; the run's count with what it goes on from.
  expect(await page.textContent(".facts")).toContain("1 model call (4 with what it goes on from)");
  expect(await page.textContent(".facts")).toMatch(/cost \$0\.\d+ \(this part\)/);
  // The providers' costs are the whole run's: the re-bound customer, with what the paused part added.
  expect(await page.textContent(".provider-costs summary")).toBe(
    "Cost per discovered provider, whole run with the parts it goes on from (1)",
  );
  expect(await texts(page, ".provider-costs li")).toEqual([
    expect.stringMatching(/^Customer c123 · \$0\.\d+ · 1 call · 279 definition \+ 18 result tokens$/),
  ]);
  const steps = (file: string) =>
    page.$eval(`.run-item[data-file="${file}"]`, (b) => /· (\d+ steps?)/.exec(b.textContent!)?.[1]);
  expect(await Promise.all(files.map(steps))).toEqual(["3 steps", "1 step", "2 steps"]);
}

describe.skipIf(!view.present)("the run viewer in headless Chromium", () => {
  it("shows a discovery run read from its log: added tools with the call that found them, the approval decision, the cost", async () => {
    const { page, errors, consoleErrors } = await view.open();
    // Newest first; the conversation's three runs together, in order.
    expect(
      await page.$$eval(".conversation .run-item", (all) => all.map((b) => b.getAttribute("data-file"))),
    ).toEqual(files);
    // The conversation's cost: its files' own costs added up, each model call once (the next turn's
    // result `cost.total`), not the runs' totals, which hold what each went on from.
    const own = files.map(
      (f) =>
        (JSON.parse(readFileSync(path.join(dir, f), "utf8").trim().split("\n").at(-1)!) as { cost: number })
          .cost,
    );
    const whole = own.reduce((a, b) => a + b);
    expect(whole).toBeCloseTo(conversation.next.cost!.total, 12);
    expect(await page.innerText(".conversation .conversation-label")).toBe(
      `conversation · 3 runs · $${whole.toFixed(whole < 0.01 ? 6 : 4)}`,
    );
    await expectDiscoveryConversation(page);
    await show(page, files[0]!);
    await page.click('li[data-step="2"] .step-head');
    await page.waitForSelector('li[data-step="2"] img');
    const shot =
      process.env["UPDATE_SCREENSHOTS"] === "1" ? "docs/run-viewer.png" : path.join(root, "run-viewer.png");
    await page.screenshot({ path: shot });
    expect(errors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it("from the keyboard alone: Tab stops once in the run list, at the open run, and goes on into the run; arrows move, Enter opens, ] opens the next run and focuses it", async () => {
    const [paused, resumed] = files;
    const { page, errors } = await view.open(`#${resumed}`);
    expect(await page.getAttribute(".run-item", "data-file")).not.toBe(resumed);
    await page.keyboard.press("Tab");
    expect(await focusAt(page)).toMatchObject({ file: resumed });
    await page.keyboard.press("Tab");
    expect(await focusAt(page)).toMatchObject({ run: resumed });
    await page.keyboard.press("Shift+Tab");
    expect(await focusAt(page)).toMatchObject({ file: resumed });

    // The turn before it, opened; in its run, j goes to the first step, j to the next, Enter opens it.
    await page.keyboard.press("ArrowUp");
    expect(await focusAt(page)).toMatchObject({ file: paused });
    await page.keyboard.press("Enter");
    await page.waitForSelector(`section.run[aria-label="run ${paused}"]`);
    await page.keyboard.press("Tab");
    expect(await focusAt(page)).toMatchObject({ run: paused });
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("Enter");
    expect(await focusAt(page)).toEqual({ run: paused, step: "2", className: "step-head" });
    expect(await page.getAttribute('li[data-step="2"] .step-head', "aria-expanded")).toBe("true");
    await page.keyboard.press("Tab");
    expect(await focusAt(page)).toMatchObject({ run: paused, step: "2" }); // into what it opened

    // ] from the step: the next run opens, and the focus, which was in the run closed, goes to it in the list.
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("]");
    await page.waitForSelector(`section.run[aria-label="run ${resumed}"]`);
    expect(await focusAt(page)).toMatchObject({ file: resumed });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a run written while the page is open appears, and grows to its end, without a reload", async () => {
    const { page, errors } = await view.open();
    await page.evaluate(() => ((globalThis as unknown as { stayed: boolean }).stayed = true));
    const listed = () => page.$$eval(".run-item", (all) => all.map((b) => b.getAttribute("data-file")!));
    const before = await listed();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = defineTool({
      name: "slowLookup",
      description: "Waits",
      execute: () => gate.then(() => "found"),
    });
    const fake = new FakePromptRunner();
    fake.callTool("slowLookup").respondWithText("all done");
    const running = fake.withTools(slow).withRunLog(dir).run("Look it up");
    await expect.poll(async () => (await listed()).length, { timeout: 10_000 }).toBe(before.length + 1);
    const file = (await listed()).find((f) => !before.includes(f))!;
    await show(page, file);
    expect(await page.getAttribute("section.run", "data-status")).toBe("open");
    // A screen reader hears a few words of what changed, not the panel redrawn at every read.
    expect(await page.getAttribute("#run", "aria-live")).toBeNull();
    expect(await page.getAttribute("#announce", "role")).toBe("status");
    expect(await page.textContent("#announce")).toBe(`Run ${file}: no end yet, 1 step`);
    release();
    await running;
    await page.waitForSelector('section.run[data-status="completed"]', { timeout: 10_000 });
    expect(await page.$$eval(".step", (all) => all.length)).toBe(2);
    expect(await page.textContent("#announce")).toBe("The run ended: completed, 2 steps");
    expect(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a restart is one line with its cause and reason; where the tool list changed after it, the cache-broken note; a failed call's cause", async () => {
    const name = "2026-02-01T00-00-00-000Z-restarts.jsonl";
    writeFileSync(path.join(dir, name), restartedRunLines());
    const { page, errors } = await view.open(`#${name}`);
    await page.waitForSelector(`section.run[aria-label="run ${name}"]`);
    const restarts = await page.$$eval(".step", (steps) =>
      steps.map((s) => [s.getAttribute("data-step"), s.querySelector(".restart")?.textContent]),
    );
    expect(restarts).toEqual([
      ["1", "↻ restart to expand policies.warranty, policies: policies.warranty unlocks warranty_check"],
      ["2", "↻ restart asked by a strategy: a fresh start"],
      ["3", "↻ restart in a new thread: this backend cannot add customer_c1_orders to a running thread"],
      [
        "4",
        "↻ restart in a new thread (fallback from dynamic tools): customer_c1_orders was not listed in time",
      ],
      ["5", "↻ restart: an older writer's restart"],
    ]);
    // The tool list changed at steps 2, 4 and 5 (a tool that left after a restart left because of it);
    // step 3, after a strategy's restart, was offered the same list: its cache was not broken.
    const changes = await page.$$eval(".step", (steps) =>
      steps.map((s) => [
        [...s.querySelectorAll(".changes li")].map((li) => li.textContent).join(" | "),
        s.querySelector(".cache-broken")?.textContent ?? "",
      ]),
    );
    const broken = "prompt cache broken here: the tool list changed";
    expect(changes).toEqual([
      ["", ""],
      ["+ warranty_check", broken],
      ["", ""],
      ["+ customer_c1_orders — from lookup at step 3", broken],
      ["− warranty_check — restart", broken],
    ]);
    // Each step's line counts what its tool set gained or lost, and leaves out a side with none.
    expect(await texts(page, ".step-head")).toEqual([
      "Step 1 · 2 tools · 1 call",
      "Step 2 · 3 tools (+1) · 1 call · in 1 out 1 · cached 0%",
      "Step 3 · 3 tools · 1 call",
      "Step 4 · 4 tools (+1)",
      "Step 5 · 3 tools (−1)",
    ]);
    // A call the server failed: opened, what the model read, then what the server threw (its cause).
    await page.click('li[data-step="2"] .step-head');
    // The model asked for, and the snapshot that answered (the response's id, when another).
    expect(await texts(page, 'li[data-step="2"] .model-id')).toEqual([
      "gpt-5 (answered as gpt-5-2025-08-07)",
    ]);
    expect(await texts(page, 'li[data-step="2"] .call-detail pre')).toEqual([
      'The call of "warranty_check" failed in the server',
      "StrategyError: the warranty service refused key sk-1",
    ]);
    expect(await texts(page, 'li[data-step="2"] .call-detail .field-label')).toEqual(["error"]);
    expect(await texts(page, 'li[data-step="2"] .call-detail .cause h5')).toEqual([
      "Cause (not told to the model)",
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a 2 000-step run with 10 000 discovered providers: one page of steps in the DOM, paged with the keyboard", async () => {
    const { page, errors } = await view.open(`#${longRun}`);
    await page.waitForSelector(`section.run[aria-label="run ${longRun}"]`);
    const paint = await page.evaluate(
      () => performance.getEntriesByName("entity-tools:first-run-painted")[0]!.startTime,
    );
    console.log(`viewer: first paint of the 2 000-step run ${Math.round(paint)} ms after navigation`);
    expect(await page.$$eval(".step", (all) => all.length)).toBe(50);
    expect(await page.textContent(".steps + .pager .pager-label")).toBe("1–50 of 2,000 steps");
    await page.focus('li[data-step="1"] .step-head');
    await page.keyboard.press("Enter");
    expect(await texts(page, ".discovered .pager-label")).toEqual(["1–100 of 10,000 providers"]);
    // Handles mode: each provider's handle, and the entity a later call's handle names.
    expect((await texts(page, ".discovered li"))[0]).toBe(
      "Customer c0 · handle Customer:c0~mac · found by call-1",
    );
    expect(await texts(page, 'li[data-step="2"] .call')).toEqual([
      expect.stringMatching(/^✓ customer_getAverageSpend → Customer c2 · \d+ ms$/),
    ]);
    expect(await page.$$eval(".discovered li", (all) => all.length)).toBe(100);
    await page.keyboard.press("j");
    const focused = () =>
      page.evaluate(() => {
        type Focused = { closest(s: string): { getAttribute(a: string): string | null } | null };
        const { document } = globalThis as unknown as { document: { activeElement: Focused | null } };
        return document.activeElement?.closest("li")?.getAttribute("data-step");
      });
    expect(await focused()).toBe("2");
    await page.keyboard.press("n");
    await page.keyboard.press("n");
    expect(await page.textContent(".steps + .pager .pager-label")).toBe("101–150 of 2,000 steps");
    // The focus stays at its place on the page (the step it was on is gone), and only that page is in the
    // list (step 1, opened on the first page, is not left behind).
    expect(await focused()).toBe("102");
    expect(await page.$$eval(".step", (all) => all.length)).toBe(50);
    await page.keyboard.press("p");
    expect(await focused()).toBe("52");
    // Back to the first page with the pager's ◀, from the keyboard: disabled there, it gives the focus to ▶.
    await page.focus(".steps + .pager .prev");
    await page.keyboard.press("Enter");
    expect(await page.textContent(".steps + .pager .pager-label")).toBe("1–50 of 2,000 steps");
    expect(await focusAt(page)).toMatchObject({ className: "next" });
    await page.keyboard.press("Enter"); // ▶ twice: steps 101–150 again
    await page.keyboard.press("Enter");
    expect(await texts(page, 'li[data-step="111"] .changes li')).toEqual([
      "+ vip_110_getOffers — from customer_getAverageSpend at step 110",
      "− vip_10_getOffers — budget (after customer_getAverageSpend at step 110)",
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the keys go on from where the reader is: an arrow scrolls after a click in a result, j in an opened step goes to the next, / in a step opens it and filters its tools", async () => {
    const { page, errors } = await view.open(`#${longRun}`);
    await page.waitForSelector(`section.run[aria-label="run ${longRun}"]`);
    await page.click('li[data-step="1"] .step-head');
    // A click in the call's result (no control there): the arrow scrolls the page, as it does anywhere.
    await page.click('li[data-step="1"] .call-detail pre');
    const before = await scrollY(page);
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => scrollY(page)).toBeGreaterThan(before);
    expect(await focusAt(page)).toEqual({ className: "" }); // the focus stayed on the page, not on a step
    // From a control inside the opened step (its providers' pager), j goes to the next step.
    await page.focus('li[data-step="1"] .discovered .pager .next');
    await page.keyboard.press("j");
    expect(await focusAt(page)).toMatchObject({ step: "2", className: "step-head" });
    // On step 5's line (closed), / opens it and focuses its own tools' filter, not step 1's.
    await page.focus('li[data-step="5"] .step-head');
    await page.keyboard.press("/");
    expect(await page.getAttribute('li[data-step="5"] .step-head', "aria-expanded")).toBe("true");
    expect(await focusAt(page)).toMatchObject({ step: "5", className: "" });
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { type?: string } } }).document.activeElement
            .type,
      ),
    ).toBe("search");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("damaged files: shows what it could read and names each skipped line or file; never crashes", async () => {
    writeDamagedFiles();
    const { page, errors } = await view.open();
    expect(await page.textContent(`.run-item[data-file="${NEWER_FORMAT}"]`)).toContain(
      "the file is run log format version 2; this viewer reads version 1: skipped",
    );
    // Opened, it is unreadable too: no run state the page cannot know (it said "unfinished").
    await show(page, NEWER_FORMAT);
    expect(await texts(page, "section.run h2 .status")).toEqual(["unreadable"]);
    expect(await page.$$eval("section.run .unfinished-note", (all) => all.length)).toBe(0);
    await show(page, DAMAGED);
    expect(await texts(page, ".problems li")).toEqual([
      "line 4 is not JSON: skipped",
      expect.stringMatching(/^line \d+ is cut short \(the process stopped while writing it\): skipped$/),
    ]);
    expect(await page.$$eval(".step", (all) => all.length)).toBe(3);
    await page.click('li[data-step="2"] .step-head');
    await page.waitForSelector(".call-detail .missing");
    expect(await texts(page, ".call-detail .missing")).toEqual([
      "media file 2026-01-01T00-00-00-000Z-damage.media/1.png could not be loaded",
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the --html file opens with every network request blocked and shows the same", async () => {
    writeDamagedFiles();
    const out = path.join(root, "runs.html");
    await writeHtmlExport(dir, out);
    const { page, errors, blocked, consoleErrors } = await openPage(view.browser, `file://${out}`, true);
    await expectDiscoveryConversation(page);
    await show(page, DAMAGED);
    expect(await texts(page, ".problems li")).toHaveLength(2);
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it("a live run's panel keeps the focus, a typed filter and the scroll position while steps arrive", async () => {
    const name = "2026-02-01T00-00-00-000Z-focus.jsonl";
    const file = path.join(dir, name);
    writeFileSync(file, liveRunLines(1, 30));
    const { page, errors } = await view.open(`#${name}`);
    await page.waitForSelector(`section.run[aria-label="run ${name}"] li[data-step="30"]`);
    await page.focus('li[data-step="20"] .step-head');
    const head = await focusedElement(page);
    const scrolled = await scrollY(page);
    expect(scrolled).toBeGreaterThan(0);
    appendFileSync(file, liveRunLines(31, 31));
    await page.waitForSelector('body[data-steps="31"]');
    expect(await hasFocus(page, head)).toBe(true);
    expect(await scrollY(page)).toBe(scrolled);

    // Step 20 opened, its tools filtered: the filter keeps the focus and what was typed.
    await page.keyboard.press("Enter");
    await page.focus('li[data-step="20"] input[type=search]');
    await page.keyboard.type("search");
    const filter = await focusedElement(page);
    appendFileSync(file, liveRunLines(32, 32));
    await page.waitForSelector('body[data-steps="32"]');
    expect(await hasFocus(page, filter)).toBe(true);
    expect(await page.inputValue('li[data-step="20"] input[type=search]')).toBe("search");
    expect(await texts(page, 'li[data-step="20"] .tool-names li')).toEqual(["search_a", "search_b"]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a growing run read in pieces (a line split between two reads) shows what one whole read shows; each read asks for the new bytes only", async () => {
    const name = "2026-02-01T00-00-00-000Z-grow.jsonl";
    const file = path.join(dir, name);
    const whole = readFileSync(path.join(dir, files[0]!)); // the discovery run: tools found, an approval, costs
    const lineStarts = [0, ...[...whole].flatMap((byte, i) => (byte === 0x0a ? [i + 1] : []))];
    // In line 3, in line 6 (each completed by the next piece), after line 8, the end.
    const cuts = [lineStarts[2]! + 10, lineStarts[5]! + 10, lineStarts[8]!, whole.length];
    const asked: number[] = [];
    writeFileSync(file, whole.subarray(0, cuts[0]));
    const { page, errors } = await view.open(`#${name}`, (page) =>
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.pathname !== "/api/file" || url.searchParams.get("name") !== name) return;
        // A file read while it changed is checked whole at a later refresh (read-position.ts), from where
        // the last read ended: the next read asks from there too, unless that check (on a loaded machine,
        // seconds later) already brought the next piece. Either way, one start per piece.
        const from = Number(url.searchParams.get("from"));
        if (asked.at(-1) !== from) asked.push(from);
      }),
    );
    await page.waitForSelector(`body[data-bytes="${cuts[0]}"]`);
    expect(await texts(page, ".problems li")).toEqual([
      "line 3 is cut short (the process stopped while writing it): skipped",
    ]);
    let firstStep: ElementHandle | null = null;
    for (const [i, cut] of cuts.slice(1).entries()) {
      appendFileSync(file, whole.subarray(cuts[i], cut));
      await page.waitForSelector(`body[data-bytes="${cut}"]`);
      if (cut === cuts[2]) firstStep = await page.$('li[data-step="1"]'); // step 1 whole, step 2 not yet
    }
    // From the start, then from where each read's last whole line ended: the split lines are read again.
    const afterLastLine = (cut: number) => whole.lastIndexOf(0x0a, cut - 1) + 1;
    expect(asked).toEqual([0, ...cuts.slice(0, -1).map(afterLastLine)]);
    const fresh = await view.open(`#${name}`);
    expect(await page.innerText("section.run")).toBe(await fresh.page.innerText("section.run"));
    // Step 1, whole before the last piece came, is still the element it was.
    expect(await firstStep!.evaluate((li) => li.isConnected)).toBe(true);

    // Replaced by a shorter file (another run's first two lines): read again from its start.
    const other = readFileSync(path.join(dir, files[1]!));
    const shorter = other.subarray(0, other.indexOf(0x0a, other.indexOf(0x0a) + 1) + 1);
    const before = asked.length;
    writeFileSync(file, shorter);
    await page.waitForSelector(`body[data-bytes="${shorter.length}"]`);
    expect(asked.slice(before)).toContain(0); // a late check of the read before may come after it
    const again = await view.open(`#${name}`);
    expect(await page.innerText("section.run")).toBe(await again.page.innerText("section.run"));
    expect([...errors, ...fresh.errors, ...again.errors]).toEqual([]);
    await Promise.all([page.close(), fresh.page.close(), again.page.close()]);
  });

  it("the prompt's picture, written beside the log, is shown with the prompt", async () => {
    const before = new Set(readdirSync(dir));
    const png = readFileSync("docs/run-viewer.png");
    await new FakePromptRunner()
      .respondWithText("a page")
      .withRunLog(dir)
      .run([
        {
          role: "user",
          content: [
            { type: "text", text: "What does this show?" },
            { type: "image", image: new Uint8Array(png) },
          ],
        },
      ]);
    const name = readdirSync(dir).find((f) => !before.has(f) && f.endsWith(".jsonl"))!;
    const { page, errors } = await view.open(`#${name}`);
    await page.click(`section.run[aria-label="run ${name}"] details summary`);
    const img = await page.waitForSelector('section.run details img[alt="image/png from the prompt"]');
    const width = await img.evaluate(async (e) => {
      const picture = e as unknown as { decode(): Promise<void>; naturalWidth: number };
      await picture.decode();
      return picture.naturalWidth;
    });
    expect(width).toBe(readPngWidth(png));
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a turn that used another model (a Claude Code subagent): the step's line has all its tokens and cost, named by its model; opened, the other model on its own line with its own", async () => {
    const name = "2026-02-01T00-00-00-000Z-subagent.jsonl";
    const usage = (inputTokens: number, outputTokens: number) => ({
      inputTokens,
      outputTokens,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
    const response = (modelId: string, tokens: object, cost: number) => ({
      type: "response",
      step: 1,
      ms: 1,
      durationMs: 0,
      modelId,
      usage: tokens,
      cost,
      text: "",
      calls: [],
    });
    const lines = [
      { type: "step", step: 1, iteration: 1, ms: 0, count: 1, tools: ["lookup"] },
      response("claude-sonnet-4-5", usage(200, 14), 0.00081),
      response("claude-haiku-4-5", usage(100, 7), 0.000135),
    ];
    writeFileSync(
      path.join(dir, name),
      [runHeaderLine("subagent", "2026-02-01T00:00:00.000Z"), ...lines.map((l) => JSON.stringify(l))].join(
        "\n",
      ) + "\n",
    );
    const { page, errors } = await view.open(`#${name}`);
    await page.waitForSelector(`section.run[aria-label="run ${name}"] li[data-step="1"]`);
    expect(await texts(page, 'li[data-step="1"] .step-head')).toEqual([
      "Step 1 · 1 tool · in 300 out 21 · cached 0% · $0.000945",
    ]);
    await page.click('li[data-step="1"] .step-head');
    expect(await texts(page, 'li[data-step="1"] .model-id')).toEqual([
      "claude-sonnet-4-5",
      "also claude-haiku-4-5: in 100 out 7 · $0.000135",
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a value the log holds cut (an argument larger than the run's whole limit) says so with its size; every step after it is there", async () => {
    const before = new Set(readdirSync(dir));
    const store = defineTool({
      name: "store",
      description: "Stores a document",
      inputSchema: { type: "object", properties: { doc: { type: "string" } }, required: ["doc"] },
      execute: (input: { doc: string }) => `stored ${input.doc.length}`,
    });
    const fake = new FakePromptRunner();
    fake.callTool("store", { doc: "d".repeat(300_000) });
    fake.callTool("store", { doc: "small" }).callTool("store", { doc: "small" }).respondWithText("done");
    // 200 kB a run: values are kept up to a fiftieth of it, 4 000 characters.
    await fake
      .withTools(store)
      .withRunLog(dir, { maxFileBytes: 200_000 })
      .run(`Store it. ${"p".repeat(10_000)}`);
    const name = readdirSync(dir).find((f) => !before.has(f) && f.endsWith(".jsonl"))!;
    const { page, errors } = await view.open(`#${name}`);
    await page.waitForSelector(`section.run[aria-label="run ${name}"] li[data-step="4"]`);
    expect(await page.$$eval(".step", (steps) => steps.length)).toBe(4);
    await page.click('li[data-step="1"] .step-head');
    const input = `{"doc":"${"d".repeat(300_000)}"}`.length;
    expect(await texts(page, 'li[data-step="1"] .call-detail .cut-value')).toEqual([
      `✂ cut by the run log: the first 4,000 of ${input.toLocaleString("en-US")} characters kept`,
    ]);
    await page.click(`section.run[aria-label="run ${name}"] details summary`);
    expect(await texts(page, "section.run details .cut-value")).toEqual([
      expect.stringMatching(/^✂ cut by the run log: the first 4,000 of 10,\d{3} characters kept$/),
    ]);
    expect(await texts(page, 'li[data-step="2"] .cut-value')).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** A PNG's width, from its header (the IHDR chunk's first field). */
function readPngWidth(png: Buffer): number {
  return png.readUInt32BE(16);
}
