// A test file's viewer in headless Chromium on a folder of run logs: the logs written first, then one view
// server and one browser for the file, closed after its tests with the folder removed. Without Chromium,
// nothing starts (the file skips its tests on `present`).
import { rmSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { startViewServer, type ViewServer } from "../../src/viewer/view-server.js";
import { chromiumPresent, launchChromium } from "./viewer-browser.js";

/** The viewer of `dir`, once `write` has written its run logs (`test` names the file where it is skipped). */
export function viewerOf(dir: string, test: string, write: () => Promise<void>) {
  const present = chromiumPresent(test);
  let browser: Browser | undefined;
  let viewer: ViewServer | undefined;
  beforeAll(async () => {
    if (!present) return;
    await write();
    viewer = await startViewServer(dir, { port: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await viewer?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    present,
    /** The file's browser (in a test: started). */
    browser: (): Browser => browser!,
    /** The page's address (in a test: started). */
    url: (): string => viewer!.url,
  };
}
