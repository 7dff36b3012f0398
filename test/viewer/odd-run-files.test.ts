// Run files a user hands the viewer that no run wrote: a line longer than one read (a file of gigabytes
// with no newline), a file larger than one read, a file it cannot open, a FIFO named `.jsonl`. What the
// page reads of each (the same reader) shows what could be read and names what was skipped; no read holds
// more than one read's worth of bytes, and nothing waits on a FIFO. The read limit is the folder's own
// option, set small here: the suite writes no large file.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GrowingRunLog, readRunLog } from "../../src/run-log/read-run-log.js";
import { writeHtmlExport } from "../../src/viewer/html-export.js";
import { LogFolder } from "../../src/viewer/log-folder.js";
import type { InlineLogs } from "../../src/viewer/page-html.js";
import { RunsSoFar } from "../../src/viewer/runs-so-far.js";
import { startViewServer } from "../../src/viewer/view-server.js";

const root = mkdtempSync(path.join(tmpdir(), "odd-run-files-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const asRoot = process.getuid?.() === 0; // root reads a file of mode 000: no file is unreadable to it

const HEADER = JSON.stringify({
  type: "run",
  format: "entity-tools/run-log",
  version: 1,
  id: "r1",
  kind: "run",
  startedAt: "2026-11-27T10:00:00.000Z",
  recordContent: true,
});
const STEP = (step: number) => JSON.stringify({ type: "step", step, iteration: step, count: 0 });
const LIMIT = 400;
const RUN = "2026-11-27T10-00-00-000Z-aaaaaa.jsonl";

function folderWith(name: string, text: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, RUN), text);
  return dir;
}

/** Reads the run as the open page does: from 0, then on while a read leaves the rest for the next. */
function readAsThePage(folder: LogFolder) {
  const log = new GrowingRunLog();
  const reads = [];
  let from = 0;
  let check: string | undefined;
  do {
    const read = folder.read(RUN, from, check === undefined ? {} : { check, whole: true })!;
    reads.push(read);
    log.append(read.text);
    ({ next: from, check } = read);
  } while (log.readsOn() && reads.length < 20);
  return { reads, read: log.read() };
}

describe("a run file larger than one read", () => {
  it("skips a line longer than one read and names it; reads the lines around it, a read at a time", () => {
    const long = JSON.stringify({ type: "note", step: 1, message: "x".repeat(3 * LIMIT) });
    const text = [HEADER, STEP(1), long, STEP(2), STEP(3)].join("\n") + "\n";
    const folder = LogFolder.open(folderWith("long-line", text), { readLimit: LIMIT });
    const { reads, read } = readAsThePage(folder);
    expect(read.header?.id).toBe("r1");
    expect(read.records.map((r) => [r.type, (r as { step?: number }).step])).toEqual([
      ["step", 1],
      ["step", 2],
      ["step", 3],
    ]);
    expect(read.problems).toEqual([
      {
        line: 3,
        message: `line 3 is ${Buffer.byteLength(long)} bytes long, more than the viewer reads of a line (${LIMIT}): skipped`,
      },
    ]);
    expect(reads.at(-1)!.next).toBe(Buffer.byteLength(text));
    for (const r of reads) expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(LIMIT + 100);
  });

  it("names a file with no newline at all (gigabytes of it) as one line with no end, holding none of it", () => {
    const folder = LogFolder.open(folderWith("no-newline", "y".repeat(10 * LIMIT)), { readLimit: LIMIT });
    const { reads, read } = readAsThePage(folder);
    expect(reads).toHaveLength(1);
    expect(read.problems).toEqual([
      {
        line: 1,
        message: `line 1 has no end after ${10 * LIMIT} bytes, more than the viewer reads of a line (${LIMIT}): skipped`,
      },
    ]);
    // Read again, whole, when it has an end: nothing of it was taken as read.
    expect(reads[0]!.next).toBe(0);
    const listed = folder.runs()[0]!;
    expect(summaryProblem(listed.head, listed.tail)).toBe("the file has no run header");
  });

  it("the run list's figures of a run still going, larger than one read, come to the whole file listing by listing", () => {
    const steps = Array.from({ length: 20 }, (_, i) => STEP(i + 1));
    const dir = folderWith("so-far", [HEADER, ...steps].join("\n") + "\n");
    const folder = LogFolder.open(dir, { readLimit: LIMIT, now: () => Date.now() + 60_000 });
    const runs = new RunsSoFar(folder);
    let listed = runs.list()[0]!;
    for (let i = 0; i < 10 && listed.soFar?.steps !== 20; i++) listed = runs.list()[0]!;
    expect(listed.soFar?.steps).toBe(20);
  });

  it("the --html export holds what one read holds, and says what it left out", async () => {
    const steps = Array.from({ length: 10 }, (_, i) => STEP(i + 1));
    const text = [HEADER, ...steps].join("\n") + "\n";
    const dir = folderWith("export", text);
    const out = path.join(root, "export.html");
    await writeHtmlExport(dir, out, { readLimit: LIMIT });
    const [file] = inlinedLogs(out).files;
    const read = readRunLog(file!.text);
    const kept = read.records.length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(10);
    const after =
      text
        .split("\n")
        .slice(0, kept + 1)
        .join("\n").length + 1;
    expect(read.problems).toEqual([
      {
        message: `the file's last ${Buffer.byteLength(text) - after} bytes, after line ${kept + 1}, are not read: more than one read of the viewer (${LIMIT} bytes)`,
      },
    ]);
  });
});

describe("a run file the viewer cannot read", () => {
  it.skipIf(asRoot)("is listed, and the run says why, instead of vanishing from the list", () => {
    const dir = folderWith("unreadable", `${HEADER}\n`);
    chmodSync(path.join(dir, RUN), 0o000);
    const folder = LogFolder.open(dir);
    const [entry] = folder.runs();
    expect(entry?.name).toBe(RUN);
    expect(summaryProblem(entry!.head, entry!.tail)).toMatch(
      /^the file cannot be read \(EACCES: .*\): skipped$/,
    );
    expect(readRunLog(folder.read(RUN)!.text).problems[0]!.message).toMatch(
      /^the file cannot be read \(EACCES/,
    );
  });

  it("says so when the folder or file given does not exist, or cannot be listed", () => {
    expect(() => LogFolder.open(path.join(root, "nowhere"))).toThrow(
      `${path.join(root, "nowhere")} does not exist`,
    );
    if (asRoot) return;
    const dir = path.join(root, "closed");
    mkdirSync(dir, { mode: 0o000 });
    expect(() => LogFolder.open(dir)).toThrow(`${dir} cannot be read: EACCES`);
  });

  it.runIf(process.platform === "linux")(
    "neither lists nor waits on a FIFO named .jsonl, nor serves a FIFO or unreadable media",
    async () => {
      const dir = folderWith("fifo", `${HEADER}\n`);
      execFileSync("mkfifo", [path.join(dir, "2026-11-27T11-00-00-000Z-fifo.jsonl")]);
      const media = path.join(dir, "2026-11-27T10-00-00-000Z-aaaaaa.media");
      mkdirSync(media);
      execFileSync("mkfifo", [path.join(media, "1.png")]);
      writeFileSync(path.join(media, "2.png"), "png");
      chmodSync(path.join(media, "2.png"), 0o000);
      const folder = LogFolder.open(dir);
      expect(folder.runs().map((r) => r.name)).toEqual([RUN]);
      expect(folder.read("2026-11-27T11-00-00-000Z-fifo.jsonl")).toBeUndefined();
      const viewer = await startViewServer(dir, { port: 0 });
      try {
        const get = (file: string) =>
          fetch(`${viewer.url}media/2026-11-27T10-00-00-000Z-aaaaaa.media/${file}`).then((r) => r.status);
        expect(await get("1.png")).toBe(404);
        // Unreadable: a 404 the page names, not a 200 whose body breaks off.
        expect(await get("2.png")).toBe(asRoot ? 200 : 404);
      } finally {
        await viewer.close();
      }
    },
  );
});

/** What the run list says of a file that could not be read, from its first and last lines as listed. */
function summaryProblem(head: string, tail: string): string | undefined {
  const read = readRunLog(tail && tail !== head ? `${head}\n${tail}\n` : `${head}\n`);
  return read.header ? undefined : (read.problems[0]?.message ?? "the file has no run header");
}

function inlinedLogs(out: string): InlineLogs {
  const data = /<script type="application\/json" id="run-log-data">(.*?)<\/script>/s.exec(
    readFileSync(out, "utf8"),
  )![1]!;
  return JSON.parse(data) as InlineLogs;
}
