// Headless Chromium (Debian's `chromium`) for the tests that drive a page (the viewer's, the web-chat
// example's): one browser per test file, pages that collect every script error, and the few readers the
// tests share (what the page shows, which element has the focus, where the page is scrolled).
import { existsSync } from "node:fs";
import { chromium, type Browser, type JSHandle, type Page } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";

/** Whether the browser is installed; a test file skips itself, saying why, when it is not. */
export function chromiumPresent(test: string): boolean {
  const present = existsSync(CHROMIUM);
  if (!present) console.warn(`${test} skipped: no ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
  return present;
}

/** The test file's browser: no network of its own (no QUIC, updates, sync or background requests). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * A page of `browser` at `url`, once the viewer has shown its first run, with the script errors it throws
 * (a test expects none) and, when `block`, every request it made that was not for a `file:` URL (each is
 * refused). `before` runs before the page loads (to listen to its requests).
 */
export async function openPage(
  browser: Browser,
  url: string,
  block = false,
  before?: (page: Page) => unknown,
): Promise<{ page: Page; errors: string[]; blocked: string[]; consoleErrors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  await before?.(page);
  const errors: string[] = [];
  const blocked: string[] = [];
  const consoleErrors: string[] = []; // what a user sees in the browser's console (a 404, a policy ignored)
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  if (block)
    await page.route("**/*", (route) => {
      if (route.request().url().startsWith("file:")) return route.continue();
      blocked.push(route.request().url());
      return route.abort();
    });
  await page.goto(url);
  await page.waitForSelector("body[data-ready]");
  return { page, errors, blocked, consoleErrors };
}

/** Opens the run of `file` from the run list. */
export async function show(page: Page, file: string): Promise<void> {
  await page.click(`.run-item[data-file="${file}"]`);
  await page.waitForSelector(`section.run[aria-label="run ${file}"]`);
}

/** The text of each element `selector` finds. */
export function texts(page: Page, selector: string): Promise<(string | null)[]> {
  return page.$$eval(selector, (all) => all.map((e) => e.textContent));
}

type BrowserWindow = { document: { activeElement: unknown }; scrollY: number };

/** The element that has the focus now, to find again later. */
export function focusedElement(page: Page): Promise<JSHandle> {
  return page.evaluateHandle(() => (globalThis as unknown as BrowserWindow).document.activeElement);
}

/** Whether `element` has the focus. */
export function hasFocus(page: Page, element: JSHandle): Promise<boolean> {
  return page.evaluate((e) => e === (globalThis as unknown as BrowserWindow).document.activeElement, element);
}

/** How far the page is scrolled down, in CSS pixels. */
export function scrollY(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as BrowserWindow).scrollY);
}

/** Where the focus is: the run list's item (`file`), else the run shown around it and its step, and its class. */
export function focusAt(
  page: Page,
): Promise<{ file?: string; run?: string; step?: string; className: string }> {
  return page.evaluate(() => {
    type Focused = {
      className: string;
      getAttribute(name: string): string | null;
      closest(selector: string): Focused | null;
    };
    const focused = (globalThis as unknown as { document: { activeElement: Focused | null } }).document
      .activeElement;
    const file = focused?.getAttribute("data-file");
    const run = focused?.closest("section.run")?.getAttribute("aria-label");
    const step = focused?.closest("li[data-step]")?.getAttribute("data-step");
    return {
      ...(file ? { file } : {}),
      ...(run ? { run: run.replace(/^run /, "") } : {}),
      ...(step ? { step } : {}),
      className: focused?.className ?? "",
    };
  });
}
