// The run list puts a stored conversation's turns together by the id their headers name (`conversationId`),
// in headless Chromium: a turn served where no log was kept (another process) leaves a gap in the
// `continues` chain, and the turns still show as one conversation; two conversations that went on from one
// shared snapshot (a seed run, named by neither) show apart, never as one.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakePromptRunner } from "entity-tools/testing";
import { startViewServer, type ViewServer } from "../../src/viewer/view-server.js";
import { chromiumPresent, launchChromium, openPage } from "../support/viewer-browser.js";

const present = chromiumPresent("viewer conversation groups browser test");
const dir = mkdtempSync(path.join(tmpdir(), "viewer-groups-"));
let browser: Browser;
let viewer: ViewServer;

beforeAll(async () => {
  if (!present) return;
  const fake = new FakePromptRunner();
  for (const text of ["one", "two", "three", "seed", "bob", "carol"]) fake.respondWithText(text);
  const logged = fake.withRunLog(dir);
  // Ann's conversation: turn 2 served by a process that keeps no log here (the fake without withRunLog).
  const ann1 = await logged.run("Hi, I am Ann", { conversationId: "ann" });
  const ann2 = await fake.run("My order?", { continueFrom: ann1.snapshot, conversationId: "ann" });
  await logged.run("And the invoice?", { continueFrom: ann2.snapshot, conversationId: "ann" });
  // A seed run named by no conversation, which two conversations start from.
  const seed = await logged.run("You are the shop's assistant");
  await logged.run("Hi, I am Bob", { continueFrom: seed.snapshot, conversationId: "bob" });
  await logged.run("Hi, I am Carol", { continueFrom: seed.snapshot, conversationId: "carol" });
  viewer = await startViewServer(dir, { port: 0 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each entry of the run list: its label (when shown) and its runs' "turn N" words. */
function listed(page: Page) {
  return page.$$eval(".runs li:has(> ol)", (entries) =>
    entries.map((entry) => {
      const label = entry.querySelector<HTMLElement>(".conversation-label")!;
      return {
        label: label.hidden ? null : label.textContent,
        turns: [...entry.querySelectorAll(".run-item")].map((b) => /turn \d+/.exec(b.textContent ?? "")?.[0]),
      };
    }),
  );
}

describe.skipIf(!present)("the run list groups turns by their conversation id", () => {
  it("a conversation's turns show together across a turn logged elsewhere; two conversations from one seed show apart", async () => {
    const { page, errors } = await openPage(browser, viewer.url);
    expect(await listed(page)).toEqual([
      { label: 'conversation "carol" · 1 run', turns: ["turn 1"] },
      { label: 'conversation "bob" · 1 run', turns: ["turn 1"] },
      { label: null, turns: ["turn 1"] },
      { label: 'conversation "ann" · 2 runs', turns: ["turn 1", "turn 2"] },
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
