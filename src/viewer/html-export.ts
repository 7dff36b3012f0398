// `entity-tools view <dir-or-file> --html out.html`: the same page as one file, the run logs and their media
// inside it, for a CI artifact or a pull request: it opens with no server and no network.
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { createPrivateFile } from "../local/private-files.js";
import { mediaTypeOfFile } from "../run-log/media-extensions.js";
import { LogFolder, type LogFolderOptions } from "./log-folder.js";
import { pageAssets } from "./page-assets.js";
import { inlinePage, type InlineLogs } from "./page-html.js";

/**
 * Writes the page of the run logs at `target` (a folder, or one file) to `out`, self-contained and readable
 * by its owner only (it holds what the logs hold). A media file that cannot be read is left out; the page
 * names it where the run shows it. A run file larger than one read of the viewer (`options.readLimit`)
 * holds what that read holds, and a note of the rest.
 *
 * @returns how many runs the page holds
 */
export async function writeHtmlExport(
  target: string,
  out: string,
  options: LogFolderOptions = {},
): Promise<number> {
  const folder = LogFolder.open(target, options);
  // The file is made anew: never over a run log or its media (a slip of the finger would lose the run).
  if (folder.holds(out)) throw new Error(`--html ${out} is a run log file it reads: give another file`);
  if (statSync(out, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`--html ${out} is a folder: give the file to write (out.html)`);
  const files = folder.runs().flatMap(({ name }) => {
    const read = folder.read(name, 0, { checkNext: false }); // read once: no check for a next read
    // The file's rest past one read stays a note (a whole line: this page never reads on).
    return read ? [{ name, text: read.more ? `${read.text}\n` : read.text }] : [];
  });
  const media: Record<string, string> = {};
  for (const { name } of files) {
    const dir = `${name.slice(0, -".jsonl".length)}.media`;
    let entries: string[];
    try {
      entries = readdirSync(path.join(folder.root, dir));
    } catch {
      continue; // no media for this run
    }
    for (const entry of entries) {
      const file = folder.mediaFile(`${dir}/${entry}`);
      const type = mediaTypeOfFile(entry);
      // An SVG is not inlined: it could carry script.
      if (!file || type === undefined || type === "image/svg+xml") continue;
      try {
        media[`${dir}/${entry}`] = `data:${type};base64,${readFileSync(file).toString("base64")}`;
      } catch {
        // unreadable: the page says the file is missing
      }
    }
  }
  const logs: InlineLogs = { source: target, files, media };
  const html = inlinePage(await pageAssets(), logs);
  rmSync(out, { force: true }); // made anew, for its owner only, rather than written over in its old mode
  const file = await createPrivateFile(out).catch((error: unknown) => {
    throw new Error(`--html ${out} cannot be written: ${(error as Error).message}`, { cause: error });
  });
  try {
    await file.writeFile(html);
  } finally {
    await file.close();
  }
  return files.length;
}
