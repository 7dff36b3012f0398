// What every browser test of the viewer's page sets up: a scratch folder that the file fills with runs, one
// viewer serving it and one headless Chromium, started once for the file and gone when the file ends (the
// folder too, passed or failed). A file without Chromium skips its tests, saying so.
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { startViewServer, type ViewServer } from "../../src/viewer/view-server.js";
import { tempDir } from "./temp-dir.js";
import { chromiumPresent, launchChromium, openPage } from "./viewer-browser.js";

/** The file's viewer and browser; `browser` and `viewer` are there once the file's beforeAll has run. */
export interface ViewerInChromium {
  /** Whether Chromium is installed: the file's tests run only when it is. */
  readonly present: boolean;
  /** The scratch folder (the viewer serves `served`, a folder in it or itself). */
  readonly root: string;
  /** The folder the viewer serves. */
  readonly served: string;
  readonly browser: Browser;
  readonly viewer: ViewServer;
  /** A page of the viewer at `hash` (a run's file name after `#`, or none), shown once the page is ready. */
  open(hash?: string, before?: Parameters<typeof openPage>[3]): ReturnType<typeof openPage>;
}

/**
 * Registers, for the calling test file, a scratch folder named `<prefix>…`, `write` run on the folder the
 * viewer will serve (`folder` inside the scratch folder, which `write` makes, or the scratch folder
 * itself), then the viewer on it (`readLimit`, when given, as the server's) and a headless Chromium;
 * `test` names the file in the warning given when Chromium is missing.
 */
export function viewerInChromium(
  test: string,
  prefix: string,
  options: { folder?: string; readLimit?: number; write?: (served: string) => unknown } = {},
): ViewerInChromium {
  const present = chromiumPresent(test);
  const root = tempDir(prefix);
  const served = options.folder ? path.join(root, options.folder) : root;
  let browser: Browser | undefined;
  let viewer: ViewServer | undefined;
  beforeAll(async () => {
    if (!present) return;
    await options.write?.(served);
    viewer = await startViewServer(served, {
      port: 0,
      ...(options.readLimit === undefined ? {} : { readLimit: options.readLimit }),
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await viewer?.close();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the ${what} is not started (Chromium present: ${present})`);
    return value;
  };
  return {
    present,
    root,
    served,
    get browser() {
      return started(browser, "browser");
    },
    get viewer() {
      return started(viewer, "viewer");
    },
    open(hash = "", before) {
      return openPage(this.browser, `${this.viewer.url}${hash}`, false, before);
    },
  };
}
