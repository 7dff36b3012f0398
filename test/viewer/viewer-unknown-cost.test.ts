// The viewer of a priced run whose first model call reported no usage (a scripted turn without it, as from
// a proxy that strips it), in headless Chromium: that step reads `cost unknown`, not $0 (free), and the run's
// cost says part of it is unknown, in the run's facts and in the run list; a conversation whose cost is all
// unknown says `cost unknown` too, not a bare `unknown`.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defineTool } from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { texts } from "../support/viewer-browser.js";
import { viewerInChromium } from "../support/viewer-in-chromium.js";

let file = "";

const lookup = defineTool<Record<string, never>, string>({
  name: "lookup",
  description: "Look up",
  inputSchema: { type: "object", properties: {} },
  execute: () => "found",
});

/** Step 1 calls lookup and reports no usage; step 2 answers with 1,000 in and 100 out. */
const script = () =>
  new FakePromptRunner()
    .respondWith("a call without usage", () => ({
      toolCalls: [{ toolName: "lookup" }],
      usage: { inputTokens: undefined, outputTokens: undefined },
    }))
    .respondWith("a priced answer", () => ({
      text: "done",
      usage: { inputTokens: 1_000, outputTokens: 100 },
    }));

const view = viewerInChromium("viewer unknown cost browser test", "viewer-unknown-cost-", {
  write: async (dir) => {
    await script().withTools(lookup).withPricing({ input: 2, output: 10 }).withRunLog(dir).run("look it up");
    file = readdirSync(dir).find((f) => f.endsWith(".jsonl")) ?? "";
    // A conversation's turn whose only call reported no usage: the conversation's cost is all unknown.
    await new FakePromptRunner()
      .respondWith("an answer without usage", () => ({
        text: "done",
        usage: { inputTokens: undefined, outputTokens: undefined },
      }))
      .withPricing({ input: 2, output: 10 })
      .withRunLog(dir)
      .run("hello", { conversationId: "c-unknown" });
  },
});

describe.skipIf(!view.present)("C18 a step whose provider reported no usage, in the viewer", () => {
  it("reads cost unknown on its step, and the run's cost says part of it is unknown", async () => {
    const { page, errors } = await view.open(`#${file}`);
    await page.waitForSelector(`section.run li[data-step="2"]`);
    expect(await texts(page, "li.step .step-head")).toEqual([
      "Step 1 · 1 tool · 1 call · in 0 out 0 · cost unknown",
      "Step 2 · 1 tool · in 1,000 out 100 · cached 0% · $0.003000",
    ]);
    expect(await page.textContent(".facts")).toContain("cost $0.003000 + unknown");
    expect(await page.textContent(`.run-item[data-file="${file}"]`)).toContain("cost $0.003000 + unknown");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("C23 a conversation whose cost is all unknown reads cost unknown, as its run and a step do", async () => {
    const { page, errors } = await view.open();
    await page.waitForSelector(".conversation-label:not([hidden])");
    expect(await texts(page, ".conversation-label:not([hidden])")).toEqual([
      'conversation "c-unknown" · 1 run · cost unknown',
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
