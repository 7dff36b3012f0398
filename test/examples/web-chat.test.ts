// examples/web-chat in a real headless Chromium (Debian's `chromium`, which .ci/run installs when it is
// missing): the page sends a question and shows the streamed run, text and tools as they come.
import { existsSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { startWebChat } from "../../examples/web-chat/server.js";

const CHROMIUM = "/usr/bin/chromium";
const present = existsSync(CHROMIUM);
if (!present)
  console.warn(`web-chat browser test skipped: no ${CHROMIUM} (apt-get install chromium; .ci/run does)`);

let browser: Browser | undefined;
let server: Server | undefined;
afterAll(async () => {
  await browser?.close();
  server?.close();
});

describe.skipIf(!present)("examples/web-chat in headless Chromium", () => {
  it("shows the conversation as it streams, each tool as it is called, discovered ones marked new", async () => {
    delete process.env.OPENAI_API_KEY; // the offline model, whatever the machine has
    delete process.env.OPENAI_BASE_URL;
    const started = await startWebChat(0);
    server = started.server;
    browser = await chromium.launch({
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
    const page = await browser.newPage();
    await page.goto(started.url);
    await page.click("button");
    await page.waitForSelector("body[data-state=done]", { timeout: 20_000 });
    const tools = await page.$$eval(".tool", (cards) =>
      cards.map((c) => [c.getAttribute("data-tool"), c.className, c.textContent]),
    );
    expect(tools).toEqual([
      [
        "searchCustomer",
        "tool",
        expect.stringContaining('searchCustomer({"name":"John Smith"}) → {"id":"c123"'),
      ],
      [
        "customer_c123_getAverageSpend",
        "tool new",
        'customer_c123_getAverageSpend({}) → {"amount":46.83,"currency":"USD"}',
      ],
    ]);
    expect(await page.textContent(".tools")).toBe(
      "new tools: customer_c123_getAverageSpend, customer_c123_recentOrders",
    );
    expect(await page.textContent(".assistant")).toContain('"averageMonthlySpend":46.83');
    await page.screenshot({ path: path.join(process.env.TMPDIR ?? "/tmp", "web-chat.png") });
  }, 60_000);
});
