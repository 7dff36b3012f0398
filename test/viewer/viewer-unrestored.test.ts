// A resumed run that could not restore a provider's tools (its resolveProvider threw): its file's step 0
// holds a `removed` record with reason `unrestored` and the cause, which the page shows as a line of its own
// (the run's first step lists its whole tool set, so there is no diff to show it in). Headless Chromium.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHeaderLine } from "../support/run-log-header.js";
import { openPage, show, texts } from "../support/viewer-browser.js";
import { viewerOf } from "../support/viewer-fixture.js";

const dir = mkdtempSync(path.join(tmpdir(), "viewer-unrestored-"));
const file = "2026-11-28T10-00-00-000Z-aaaaaa.jsonl";

const viewer = viewerOf(dir, "viewer unrestored tools browser test", async () => {
  const records = [
    {
      type: "removed",
      step: 0,
      tools: ["order_o1_refund", "order_o1_show"],
      reason: "unrestored",
      cause: "Error: connect ECONNREFUSED db.internal:5432",
    },
    { type: "step", step: 1, ms: 1, iteration: 3, count: 1, tools: ["findOrder"] },
  ];
  const header = JSON.parse(runHeaderLine("2026-11-28T10-00-00-000Z-aaaaaa")) as object;
  const lines = [JSON.stringify({ ...header, kind: "resume" }), ...records.map((r) => JSON.stringify(r))];
  writeFileSync(path.join(dir, file), `${lines.join("\n")}\n`);
});

describe.skipIf(!viewer.present)("tools a resumed run could not restore", () => {
  it("are shown at step 0 with what resolveProvider threw", async () => {
    const { page, errors } = await openPage(viewer.browser(), viewer.url());
    await show(page, file);
    expect(await texts(page, ".note.unrestored")).toEqual([
      "− order_o1_refund, order_o1_show: not restored — Error: connect ECONNREFUSED db.internal:5432",
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
