// The run list names a stored conversation by the id its turns were given (`conversationId`), in headless
// Chromium: a conversation of two turns, one of one turn, and a run with no id, which shows no name.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakePromptRunner } from "entity-tools/testing";
import { startViewServer, type ViewServer } from "../../src/viewer/view-server.js";
import { chromiumPresent, launchChromium, openPage, texts } from "../support/viewer-browser.js";

const present = chromiumPresent("viewer conversation id browser test");
const dir = mkdtempSync(path.join(tmpdir(), "viewer-conversation-"));
let browser: Browser;
let viewer: ViewServer;

beforeAll(async () => {
  if (!present) return;
  const runner = new FakePromptRunner()
    .respondWithText("one")
    .respondWithText("two")
    .respondWithText("three")
    .respondWithText("four")
    .withRunLog(dir);
  const first = await runner.run("Hi, I am Ann", { conversationId: "ann" });
  await runner.run("And again", { continueFrom: first.snapshot, conversationId: "ann" });
  await runner.run("Hi, I am Bob", { conversationId: "bob" });
  await runner.run("No store here");
  viewer = await startViewServer(dir, { port: 0 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!present)("the run list and conversation ids", () => {
  it("names each conversation by its id, a one-turn one too; a run with none has no name", async () => {
    const { page, errors } = await openPage(browser, viewer.url);
    expect(await texts(page, ".conversation-label:not([hidden])")).toEqual([
      'conversation "bob" · 1 run',
      'conversation "ann" · 2 runs',
    ]);
    expect(await page.$$(".run-item")).toHaveLength(4);
    expect(errors).toEqual([]);
    await page.close();
  });
});
