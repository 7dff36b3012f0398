// The viewer's folder as the run list reads it at every change: a file that did not change is not read
// again (its entry is the one read before); a file that grew, or was rewritten (even at the same size,
// modification time and inode), is; one changed just before it was read is read again at the next listing.
// A read from an offset checks that the file still holds what was read before it, else reads it whole.
import {
  appendFileSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LogFolder, QUIET_MS } from "../../src/viewer/log-folder.js";
import { RunsSoFar } from "../../src/viewer/runs-so-far.js";

const root = mkdtempSync(path.join(tmpdir(), "log-folder-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const OLD = "2026-11-27T10-00-00-000Z-aaaaaa.jsonl";
const LIVE = "2026-11-27T11-00-00-000Z-bbbbbb.jsonl";
/** The folder's clock: a minute after now, unless a test sets it (every change is long past). */
let clock = Date.now() + 60_000;
const folderAt = (dir: string) => LogFolder.open(dir, { now: () => clock });

it("a folder or file that does not exist is an error saying so (the CLI prints it), not a bare ENOENT", () => {
  expect(() => folderAt(path.join(root, "no-such-runs"))).toThrow(
    /no-such-runs does not exist: give a run log folder \(withRunLog's\) or one run's \.jsonl file$/,
  );
});

describe("LogFolder.runs", () => {
  it("reads again only the files whose size, modification time or inode changed", () => {
    writeFileSync(path.join(root, OLD), '{"type":"run","id":"old"}\n{"type":"end","ms":1}\n');
    writeFileSync(path.join(root, LIVE), '{"type":"run","id":"live"}\n{"type":"step","step":1}\n');
    const folder = folderAt(root);
    const [live, old] = folder.runs();
    expect([live!.name, old!.name]).toEqual([LIVE, OLD]);

    // Nothing changed: both entries are the ones read before.
    const again = folder.runs();
    expect(again[0]).toBe(live);
    expect(again[1]).toBe(old);

    // The live run grew: its entry is read again, the other one's is kept.
    appendFileSync(path.join(root, LIVE), '{"type":"step","step":2}\n');
    const grown = folder.runs();
    expect(grown[0]).not.toBe(live);
    // A run with no end record: its last line (a call's result can be megabytes) is not kept; an end is.
    expect([grown[0]!.tail, old!.tail]).toEqual(["", '{"type":"end","ms":1}']);
    expect(grown[1]).toBe(old);

    // Rewritten at the same size, with a later modification time: read again.
    const file = path.join(root, OLD);
    const { atime, mtime } = statSync(file);
    writeFileSync(file, '{"type":"run","id":"new"}\n{"type":"end","ms":2}\n');
    utimesSync(file, atime, new Date(mtime.getTime() + 5_000));
    const rewritten = folder.runs();
    expect(rewritten[0]).toBe(grown[0]);
    expect(rewritten[1]!.head).toBe('{"type":"run","id":"new"}');

    // A file removed is not listed.
    rmSync(path.join(root, LIVE));
    expect(folder.runs().map((e) => e.name)).toEqual([OLD]);
  });

  it("a file rewritten in place at the same size with its modification time put back (cp -p, rsync --inplace) is read again, and the folder's signature changes", () => {
    const dir = mkdtempSync(path.join(root, "rewrite-"));
    const file = path.join(dir, OLD);
    const written = new Date("2026-11-27T10:00:00.000Z"); // whole milliseconds: utimes puts it back exactly
    writeFileSync(file, '{"type":"run","id":"one"}\n{"type":"end","ms":1}\n');
    utimesSync(file, written, written);
    const folder = folderAt(dir);
    const before = statSync(file, { bigint: true });
    expect(folder.runs()[0]!.head).toBe('{"type":"run","id":"one"}');
    const signature = folder.signature();

    writeFileSync(file, '{"type":"run","id":"two"}\n{"type":"end","ms":1}\n');
    utimesSync(file, written, written);
    const after = statSync(file, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    expect(folder.runs()[0]!.head).toBe('{"type":"run","id":"two"}');
    expect(folder.signature()).not.toBe(signature);
  });

  it("a file changed less than two seconds before it was read is read again at the next listing (a rewrite within the same clock tick keeps every time)", () => {
    const dir = mkdtempSync(path.join(root, "recent-"));
    const file = path.join(dir, OLD);
    writeFileSync(file, '{"type":"run","id":"one"}\n');
    const changed = statSync(file).ctimeMs;
    const folder = folderAt(dir);
    clock = changed + 500;
    const first = folder.runs()[0];
    expect(folder.runs()[0]).not.toBe(first);
    clock = changed + 2_000;
    const settled = folder.runs()[0];
    expect(folder.runs()[0]).toBe(settled);
    clock = Date.now() + 60_000;
  });
});

describe("LogFolder.read", () => {
  const header = '{"type":"run","id":"r"}\n';
  const line = (step: number, pad = 0) => `${JSON.stringify({ type: "step", step, pad: "x".repeat(pad) })}\n`;
  const fresh = () => {
    const dir = mkdtempSync(path.join(root, "read-"));
    return { folder: folderAt(dir), file: path.join(dir, OLD) };
  };

  it("reads what a file gained after the last read; a file rewritten longer with the same first line is read from its start, not as grown", () => {
    const { folder, file } = fresh();
    writeFileSync(file, header + line(1));
    const first = folder.read(OLD, 0)!;
    appendFileSync(file, line(2));
    const grown = folder.read(OLD, first.next, { check: first.check })!;
    expect([grown.from, grown.text]).toEqual([first.next, line(2)]);

    writeFileSync(file, header + line(7) + line(8) + line(9));
    const rewritten = folder.read(OLD, grown.next, { check: grown.check })!;
    expect([rewritten.from, rewritten.text]).toEqual([0, header + line(7) + line(8) + line(9)]);
    // The check of a read from the start goes on: the next append is read alone.
    appendFileSync(file, line(10));
    expect(folder.read(OLD, rewritten.next, { check: rewritten.check })!.text).toBe(line(10));
  });

  it("a file put in place of the one read (another inode) is read from its start, even holding the same bytes and more", () => {
    const { folder, file } = fresh();
    writeFileSync(file, header + line(1));
    const first = folder.read(OLD, 0)!;
    writeFileSync(`${file}.new`, header + line(1) + line(2));
    renameSync(`${file}.new`, file);
    expect(folder.read(OLD, first.next, { check: first.check })!.from).toBe(0);
  });

  it("a rewrite past the last 16 KiB read, at the same size, is found when the whole file is checked; an unchanged file sends nothing again", () => {
    const { folder, file } = fresh();
    const body = Array.from({ length: 40 }, (_, i) => line(i + 1, 1_000)).join("");
    writeFileSync(file, header + body);
    const first = folder.read(OLD, 0)!;
    expect(first.next).toBeGreaterThan(32 * 1024);
    const unchanged = folder.read(OLD, first.next, { check: first.check, whole: true })!;
    expect([unchanged.from, unchanged.text, unchanged.check]).toEqual([first.next, "", first.check]);

    writeFileSync(file, header + body.replace('"step":2,', '"step":3,'));
    expect(statSync(file).size).toBe(first.next);
    // The last bytes read are the same: only the whole check finds the change.
    expect(folder.read(OLD, first.next, { check: first.check })!.from).toBe(first.next);
    const checked = folder.read(OLD, first.next, { check: first.check, whole: true })!;
    expect(checked.from).toBe(0);
    expect(checked.text).toContain('"step":3,');
  });

  it("says a file changed less than two seconds before it was read had not settled; the folder's signature changes when it settles", () => {
    const { folder, file } = fresh();
    writeFileSync(file, header);
    const changed = statSync(file).ctimeMs;
    clock = changed + 500;
    expect(folder.read(OLD, 0)!.settled).toBe(false);
    const changing = folder.signature();
    clock = changed + 2_000;
    expect(folder.read(OLD, 0)!.settled).toBe(true);
    const settled = folder.signature();
    expect(settled).not.toBe(changing);
    clock = changed + 30_000;
    expect(folder.signature()).toBe(settled);
    clock = Date.now() + 60_000;
  });

  it("the folder's signature changes when a file goes quiet (nothing written for a minute): a run whose process stopped is no longer shown running", () => {
    const { folder, file } = fresh();
    writeFileSync(file, header + line(1));
    const written = statSync(file).mtimeMs;
    clock = written + QUIET_MS - 1;
    expect(folder.quiet(written)).toBe(false);
    const writing = folder.signature();
    clock = written + QUIET_MS;
    expect(folder.quiet(written)).toBe(true);
    expect(folder.signature()).not.toBe(writing);
    clock = Date.now() + 60_000;
  });
  it("a read that asks for no check for the next read (the --html export) reads the same; its empty check holds no bytes", () => {
    const { folder, file } = fresh();
    writeFileSync(file, header + line(1) + '{"type":"step","st');
    const { check, ...read } = folder.read(OLD, 0)!;
    const once = folder.read(OLD, 0, { checkNext: false })!;
    expect(once).toEqual({ ...read, check: "" });
    expect(check).not.toBe("");
    // Sent back all the same, it reads the file from its start.
    expect(folder.read(OLD, once.next, { check: once.check })!.from).toBe(0);
  });
});

describe("RunsSoFar", () => {
  const response = (step: number) =>
    `${JSON.stringify({ type: "response", step, usage: { inputTokens: 10, outputTokens: 1 }, cost: 0.5 })}\n`;
  const step = (n: number) => `${JSON.stringify({ type: "step", step: n })}\n`;

  it("adds up a run with no end record as it grows, again from its start when rewritten; not a run that ended", () => {
    const dir = mkdtempSync(path.join(root, "so-far-"));
    const file = path.join(dir, OLD);
    const header = '{"type":"run","id":"r"}\n';
    writeFileSync(file, header + step(1) + response(1) + step(2));
    const runs = new RunsSoFar(folderAt(dir));
    clock = Date.now() + 2 * QUIET_MS;
    const soFar = () => runs.list()[0]!.soFar;
    expect(soFar()).toEqual({
      steps: 2,
      usage: { inputTokens: 10, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 },
      cost: 0.5,
    });
    expect(runs.list()[0]!.quiet).toBe(true); // nothing written for two minutes, by the folder's clock
    appendFileSync(file, `${response(2)}{"type":"step","st`); // a line being written is not counted yet
    expect(soFar()).toMatchObject({ steps: 2, usage: { inputTokens: 20 }, cost: 1 });
    appendFileSync(file, `ep":3}\n`);
    expect(soFar()).toMatchObject({ steps: 3, cost: 1 });
    writeFileSync(file, header + step(1)); // rewritten: one step, no answer
    expect(soFar()).toEqual({
      steps: 1,
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
    });
    appendFileSync(file, '{"type":"end","ms":1}\n');
    expect(runs.list()[0]).not.toHaveProperty("soFar");
    clock = Date.now() + 60_000;
  });
});
