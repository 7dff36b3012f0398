// What the viewer's run list (`GET /api/runs`) sends: each run's header fields that say which run it is and
// the end record, never the run's content. A header holds the run's prompt and system prompt (recorded by
// default) and a run cut by a crash ends with its last call's result: sent whole, a folder of 20 000 runs
// of 30 kB prompts was one answer past Node's longest text. The page tells another run in a file's place
// by a fingerprint of the first line, which the list and a read from the start both give.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRunLog } from "../../src/run-log/read-run-log.js";
import { startViewServer, type ViewServer } from "../../src/viewer/view-server.js";
import { runHeaderLine } from "../support/run-log-header.js";

const root = mkdtempSync(path.join(tmpdir(), "run-list-api-"));
const RUNS = 40;
const PROMPT = "p".repeat(100_000);
const RESULT = "r".repeat(100_000);
let viewer: ViewServer;

/** Run `n`: its file's name, its header's time, and its header as the writer writes it (prompt last). */
const run = (n: number, id = `r${n}`) => {
  const startedAt = new Date(Date.UTC(2026, 10, 27, 10, n)).toISOString();
  const header = { ...(JSON.parse(runHeaderLine(id, startedAt)) as object), prompt: PROMPT, system: "s" };
  return {
    name: `${startedAt.replaceAll(/[:.]/g, "-")}-run${n}.jsonl`,
    startedAt,
    line: JSON.stringify(header),
  };
};
const step = JSON.stringify({ type: "step", step: 1, iteration: 1, ms: 1, count: 1, tools: ["a"] });
const usage = { inputTokens: 10, outputTokens: 2, cachedInputTokens: 0, reasoningTokens: 0 };
const end = JSON.stringify({ type: "end", ms: 5, status: "completed", totalIterations: 1, usage });
/** A call whose result is 100 kB: the last line of a run that stopped after it (no end record). */
const call = JSON.stringify({ type: "call", step: 1, ms: 2, id: "c1", tool: "a", ok: true, result: RESULT });

interface Listed {
  name: string;
  head: string;
  headHash: string;
  tail: string;
  soFar?: { steps: number };
}

const list = async () => ((await (await fetch(`${viewer.url}api/runs`)).json()) as { files: Listed[] }).files;
const readFromStart = (name: string) => fetch(`${viewer.url}api/file?name=${name}&from=0`);

beforeAll(async () => {
  for (let n = 0; n < RUNS; n++)
    writeFileSync(path.join(root, run(n).name), `${run(n).line}\n${step}\n${n % 2 ? call : end}\n`);
  viewer = await startViewServer(root, { port: 0 });
});
afterAll(async () => {
  await viewer.close();
  rmSync(root, { recursive: true, force: true });
});

describe("the run list's answer", () => {
  it("holds each run's id, kind and start and its end record, not its prompt nor a last call's result: 40 runs of 100 kB list in a few kB", async () => {
    const answer = await fetch(`${viewer.url}api/runs`);
    const bytes = Buffer.byteLength(await answer.text());
    // The files hold 8 MB; each run is listed in well under 1 KiB.
    expect(bytes).toBeLessThan(RUNS * 1024);
    const files = await list();
    expect(files).toHaveLength(RUNS);
    for (const listed of files) {
      const n = Number(/-run(\d+)\.jsonl$/.exec(listed.name)![1]);
      // What the list reads of the header is the header, without its content.
      expect(readRunLog(`${listed.head}\n`).header).toEqual(
        JSON.parse(runHeaderLine(`r${n}`, run(n).startedAt)),
      );
      // A run that ended sends its end record; one that stopped after a call its figures so far.
      if (n % 2) expect([listed.tail, listed.soFar?.steps]).toEqual(["", 1]);
      else expect(listed.tail).toBe(end);
    }
  });

  it("gives the first line's fingerprint, the same in the list and in a read from the start: another run in a file's place has another, the same run rewritten the same", async () => {
    const { name } = run(0);
    const file = path.join(root, name);
    const fingerprint = async () => (await list()).find((f) => f.name === name)!.headHash;
    const before = await fingerprint();
    expect(before).toMatch(/^[\w-]{43}$/); // a SHA-256
    expect((await readFromStart(name)).headers.get("x-head-hash")).toBe(before);
    // A read from an offset does not read the first line again.
    expect((await fetch(`${viewer.url}api/file?name=${name}&from=10`)).headers.get("x-head-hash")).toBe("");

    writeFileSync(file, `${run(0).line}\n${step}\n${step}\n${end}\n`); // the same run, rewritten longer
    expect(await fingerprint()).toBe(before);
    writeFileSync(file, `${run(0, "another").line}\n${end}\n`); // another run in its place
    const other = await fingerprint();
    expect(other).not.toBe(before);
    expect((await readFromStart(name)).headers.get("x-head-hash")).toBe(other);
  });
});
