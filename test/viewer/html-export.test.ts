// The `--html` export's media: each media file a run wrote is inlined as a data: URL of the type the run log
// wrote it for, so the page shows it with no server; an SVG (it could carry script) and a file of a type
// the log does not know are left out.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mediaExtensionOf } from "../../src/run-log/media-extensions.js";
import { writeHtmlExport } from "../../src/viewer/html-export.js";
import type { InlineLogs } from "../../src/viewer/page-html.js";

const root = mkdtempSync(path.join(tmpdir(), "html-export-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the --html export", () => {
  it("holds each run file's whole text, a line still being written included, newest first", async () => {
    const logs = path.join(root, "texts");
    mkdirSync(logs);
    const texts = {
      "2026-11-27T09-00-00-000Z-older.jsonl": '{"type":"run","id":"older"}\n{"type":"end","ms":1}\n',
      "2026-11-27T11-00-00-000Z-live.jsonl": '{"type":"run","id":"live"}\n{"type":"step","st',
    };
    for (const [name, text] of Object.entries(texts)) writeFileSync(path.join(logs, name), text);
    const out = path.join(root, "texts.html");
    expect(await writeHtmlExport(logs, out)).toBe(2);
    expect(inlinedLogs(out).files).toEqual(
      Object.entries(texts)
        .reverse()
        .map(([name, text]) => ({ name, text })),
    );
  });

  it("inlines each media file as the type the run log wrote it for; never an SVG, nor an unknown type", async () => {
    const logs = path.join(root, "runs");
    const media = path.join(logs, "2026-11-27T10-00-00-000Z-aaaaaa.media");
    mkdirSync(media, { recursive: true });
    writeFileSync(path.join(logs, "2026-11-27T10-00-00-000Z-aaaaaa.jsonl"), '{"type":"run"}\n');
    const types = ["image/png", "image/svg+xml", "audio/wav", "text/plain", "video/x-odd"];
    for (const [i, type] of types.entries())
      writeFileSync(path.join(media, `${i + 1}.${mediaExtensionOf(type)}`), type);
    const out = path.join(root, "runs.html");
    expect(await writeHtmlExport(logs, out)).toBe(1);
    const inlined = inlinedLogs(out).media;
    const base64 = (text: string) => Buffer.from(text).toString("base64");
    expect(inlined).toEqual({
      "2026-11-27T10-00-00-000Z-aaaaaa.media/1.png": `data:image/png;base64,${base64("image/png")}`,
      "2026-11-27T10-00-00-000Z-aaaaaa.media/3.wav": `data:audio/wav;base64,${base64("audio/wav")}`,
      "2026-11-27T10-00-00-000Z-aaaaaa.media/4.txt": `data:text/plain;base64,${base64("text/plain")}`,
    });
  });

  it("never writes over a run log or its media (a slip of the finger would lose the run), nor over a folder", async () => {
    const logs = path.join(root, "guarded");
    const run = path.join(logs, "2026-11-27T10-00-00-000Z-aaaaaa.jsonl");
    const picture = path.join(logs, "2026-11-27T10-00-00-000Z-aaaaaa.media", "1.png");
    mkdirSync(path.dirname(picture), { recursive: true });
    writeFileSync(run, '{"type":"run"}\n');
    writeFileSync(picture, "png");
    await expect(writeHtmlExport(run, run)).rejects.toThrow(`--html ${run} is a run log file it reads`);
    await expect(writeHtmlExport(logs, picture)).rejects.toThrow(`--html ${picture} is a run log file`);
    await expect(writeHtmlExport(logs, logs)).rejects.toThrow(`--html ${logs} is a folder`);
    const nowhere = path.join(root, "no-folder", "out.html");
    await expect(writeHtmlExport(logs, nowhere)).rejects.toThrow(
      `--html ${nowhere} cannot be written: ENOENT`,
    );
    expect([readFileSync(run, "utf8"), readFileSync(picture, "utf8")]).toEqual(['{"type":"run"}\n', "png"]);
  });
});

/** The run logs an exported page holds. */
function inlinedLogs(out: string): InlineLogs {
  const data = /<script type="application\/json" id="run-log-data">(.*?)<\/script>/s.exec(
    readFileSync(out, "utf8"),
  )![1]!;
  return JSON.parse(data) as InlineLogs;
}
