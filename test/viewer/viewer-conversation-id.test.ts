// The run list names a stored conversation by the id its turns were given (`conversationId`), in headless
// Chromium: a conversation of two turns, one of one turn, and a run with no id, which shows no name.
import { describe, expect, it } from "vitest";
import { FakePromptRunner } from "entity-tools/testing";
import { texts } from "../support/viewer-browser.js";
import { viewerInChromium } from "../support/viewer-in-chromium.js";

const view = viewerInChromium("viewer conversation id browser test", "viewer-conversation-", {
  write: async (dir) => {
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
  },
});

describe.skipIf(!view.present)("the run list and conversation ids", () => {
  it("names each conversation by its id, a one-turn one too; a run with none has no name", async () => {
    const { page, errors } = await view.open();
    expect(await texts(page, ".conversation-label:not([hidden])")).toEqual([
      'conversation "bob" · 1 run',
      'conversation "ann" · 2 runs',
    ]);
    expect(await page.$$(".run-item")).toHaveLength(4);
    expect(errors).toEqual([]);
    await page.close();
  });
});
