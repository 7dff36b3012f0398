// A picture or file of the run as the page shows it (a call's result's, the prompt's): the picture itself,
// a link to the file, or why it is missing.
import type { MediaRecord } from "../../run-log/run-log-format.js";
import { h } from "./dom.js";

/** One media record: `from` names what it came with (a tool, the prompt), for the picture's text. */
export function mediaView(
  m: MediaRecord,
  mediaUrl: (file: string) => string | undefined,
  from: string,
): HTMLElement {
  const url = m.file === undefined ? m.url : mediaUrl(m.file);
  if (m.file === undefined && m.url === undefined)
    return h("p", { className: "missing" }, `${m.mediaType} not written: ${m.skipped ?? "no data"}`);
  if (!url) return h("p", { className: "missing" }, `media file ${m.file} is missing or unreadable`);
  if (m.type !== "image")
    return h(
      "p",
      {},
      h("a", { href: url, download: m.filename ?? "" }, `${m.mediaType} ${m.filename ?? m.file ?? ""}`),
    );
  const img = h("img", { src: url, alt: `${m.mediaType} from ${from}` });
  img.addEventListener("error", () =>
    img.replaceWith(h("p", { className: "missing" }, `media file ${m.file} could not be loaded`)),
  );
  return img;
}

/**
 * The media records of a run's prompt: its pictures and files as the log wrote them (run-log-prompt.ts:
 * a part with its `file`, why it has none, or its `url`, in place of the bytes).
 */
export function promptMedia(prompt: unknown): MediaRecord[] {
  if (!Array.isArray(prompt)) return [];
  return prompt.flatMap((message: unknown) => {
    const content = (message as { content?: unknown } | null)?.content;
    return Array.isArray(content) ? content.filter(isMediaRecord) : [];
  });
}

function isMediaRecord(part: unknown): part is MediaRecord {
  if (typeof part !== "object" || part === null) return false;
  const p = part as Record<string, unknown>;
  return (
    (p.type === "image" || p.type === "file" || p.type === "audio") &&
    typeof p.mediaType === "string" &&
    !("image" in p) &&
    !("data" in p) &&
    (typeof p.file === "string" || typeof p.url === "string" || typeof p.skipped === "string")
  );
}
