// The run list and stored conversations' ids (`conversationId`), in headless Chromium. It names a
// conversation by the id its turns were given: a conversation of two turns, one of one turn, and a run with
// no id, which shows no name. It puts a conversation's turns together by that id: a turn served where no log
// was kept (another process) leaves a gap in the `continues` chain, and the turns still show as one
// conversation; two conversations that went on from one shared snapshot (a seed run, named by neither) show
// apart, never as one.
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakePromptRunner } from "entity-tools/testing";
import { startViewServer, type ViewServer } from "../../src/viewer/view-server.js";
import { openPage, texts } from "../support/viewer-browser.js";
import { viewerInChromium } from "../support/viewer-in-chromium.js";

/** A fake that answers `answers` in order, and the same fake logging into `folder`. */
function runners(folder: string, ...answers: string[]) {
  const fake = new FakePromptRunner();
  for (const text of answers) fake.respondWithText(text);
  return { fake, logged: fake.withRunLog(folder) };
}

// The file's viewer serves "named"; a second one, in the same scratch folder, serves "grouped".
const view = viewerInChromium("viewer conversation id browser test", "viewer-conversation-", {
  folder: "named",
  write: async (named) => {
    const one = runners(named, "one", "two", "three", "four").logged;
    const first = await one.run("Hi, I am Ann", { conversationId: "ann" });
    await one.run("And again", { continueFrom: first.snapshot, conversationId: "ann" });
    await one.run("Hi, I am Bob", { conversationId: "bob" });
    await one.run("No store here");

    const { fake, logged } = runners(
      path.join(path.dirname(named), "grouped"),
      "one",
      "two",
      "three",
      "seed",
      "bob",
      "carol",
    );
    // Ann's conversation: turn 2 served by a process that keeps no log here (the fake without withRunLog).
    const ann1 = await logged.run("Hi, I am Ann", { conversationId: "ann" });
    const ann2 = await fake.run("My order?", { continueFrom: ann1.snapshot, conversationId: "ann" });
    await logged.run("And the invoice?", { continueFrom: ann2.snapshot, conversationId: "ann" });
    // A seed run named by no conversation, which two conversations start from.
    const seed = await logged.run("You are the shop's assistant");
    await logged.run("Hi, I am Bob", { continueFrom: seed.snapshot, conversationId: "bob" });
    await logged.run("Hi, I am Carol", { continueFrom: seed.snapshot, conversationId: "carol" });
  },
});
let grouped: ViewServer | undefined;
beforeAll(async () => {
  if (view.present) grouped = await startViewServer(path.join(view.root, "grouped"), { port: 0 });
});
afterAll(() => grouped?.close());

/** Each entry of the run list: its label (when shown) and its runs' "turn N" words. */
function listed(page: Page) {
  return page.$$eval(".runs li:has(> ol)", (entries) =>
    entries.map((entry) => {
      const label = entry.querySelector(".conversation-label")!;
      return {
        label: label.hasAttribute("hidden") ? null : label.textContent,
        turns: [...entry.querySelectorAll(".run-item")].map((b) => /turn \d+/.exec(b.textContent ?? "")?.[0]),
      };
    }),
  );
}

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

  it("groups turns by their id: across a turn logged elsewhere; two conversations from one seed show apart", async () => {
    const { page, errors } = await openPage(view.browser, grouped!.url);
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
