// A scratch folder in the system's temporary folder that goes away when the test that made it ends, or,
// made outside a test (a file's top level, a hook, a helper called from either), when its test file ends:
// passed or failed, the suite leaves nothing behind in /tmp.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, onTestFinished } from "vitest";

const remove = (dir: string) => rmSync(dir, { recursive: true, force: true });

/** The folders made outside a test in this test file. */
const madeOutsideTests: string[] = [];
// Registered as the test file imports this module (files import it at their top, while vitest collects
// them), so it runs after the file's own afterAll hooks (vitest runs them last-registered first): once the
// file's servers, which may still write there, are closed.
afterAll(() => {
  for (const dir of madeOutsideTests.splice(0)) remove(dir);
});

/**
 * A new empty folder named `<prefix>` and six random characters in the temporary folder, removed with
 * what it holds when its test ends (made outside a test: when its test file ends). A backend's process
 * that worked there (Claude Code, the Codex app-server) has exited by then: a run ends only once its
 * process is gone (docs/reliability.md B01).
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  try {
    onTestFinished(() => remove(dir));
  } catch {
    madeOutsideTests.push(dir); // vitest refuses onTestFinished here
  }
  return dir;
}
