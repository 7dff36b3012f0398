// A scratch folder in the system's temporary folder that goes away when the test that made it ends, or, made
// outside a test (a file's top level, a hook, a helper called from either), when its test file ends:
// passed or failed, the suite leaves nothing behind in /tmp.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, onTestFinished } from "vitest";

/** What a folder waits for before it is removed. */
type Settled = (dir: string) => Promise<unknown>;

const remove = async (dir: string, settled?: Settled) => {
  await settled?.(dir);
  rmSync(dir, { recursive: true, force: true });
};

/** The folders made outside a test in this test file. */
const madeOutsideTests: { dir: string; settled?: Settled }[] = [];
// Registered as the test file imports this module (files import it at their top, while vitest collects
// them), so it runs after the file's own afterAll hooks (vitest runs them last-registered first): once the
// file's servers, which may still write there, are closed.
afterAll(async () => {
  for (const { dir, settled } of madeOutsideTests.splice(0)) await remove(dir, settled);
});

/**
 * A new empty folder named `<prefix>` and six random characters in the temporary folder, removed with
 * what it holds when its test ends (made outside a test: when its test file ends), once `settled` has
 * resolved (for a process that may still write there: removed before it is done, it would make the folder
 * again, or leave the removal failing on what it just wrote).
 */
export function tempDir(prefix: string, settled?: Settled): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  try {
    onTestFinished(() => remove(dir, settled));
  } catch {
    madeOutsideTests.push({ dir, ...(settled ? { settled } : {}) }); // vitest refuses onTestFinished here
  }
  return dir;
}
