import type { ToolResultPart } from "ai";
import type { ToolContentPart, ToolMediaPart } from "../../tools/tool-content.js";

/** A tool result's output as the AI SDK carries it (`ToolResultPart["output"]`). */
export type ToolOutput = ToolResultPart["output"];
/** One item of a `{ type: "content" }` output. */
export type ContentOutputItem = Extract<ToolOutput, { type: "content" }>["value"][number];

/** Our key in a content item's provider options (providers read only their own key). */
const OWN_KEY = "entityTools";

/**
 * Our parts as the AI SDK's content tool output items, which ai 6 and ai 7 both take and turn into each
 * provider's own form (OpenAI Responses `input_image`/`input_file`, Anthropic `image`/`document` blocks):
 * an image as `image-data`/`image-url`, audio and files as `file-data`/`file-url`.
 */
export function contentItemOf(part: ToolContentPart): ContentOutputItem {
  if (part.type === "text") return { type: "text", text: part.text };
  if (part.type === "image")
    return part.data !== undefined
      ? { type: "image-data", data: part.data, mediaType: part.mediaType }
      : // The SDK's image-url item has no media type: it is kept under our own provider-options key,
        // which providers ignore, so backends that read the parts back still know it.
        {
          type: "image-url",
          url: part.url ?? "",
          providerOptions: { [OWN_KEY]: { mediaType: part.mediaType } },
        };
  return part.data !== undefined
    ? {
        type: "file-data",
        data: part.data,
        mediaType: part.mediaType,
        ...(part.filename ? { filename: part.filename } : {}),
      }
    : { type: "file-url", url: part.url ?? "", mediaType: part.mediaType };
}

/**
 * The parts of a tool output, for backends that carry them in their own protocol (an MCP result, Claude
 * Code, Codex): text and error outputs are one text part; content items are read back into our parts
 * (items no backend beyond the AI SDK could use, such as provider file ids, become a text note).
 */
export function partsOfOutput(output: ToolOutput): ToolContentPart[] {
  if (output.type === "text" || output.type === "error-text") return [{ type: "text", text: output.value }];
  if (output.type !== "content") return [{ type: "text", text: JSON.stringify(output) }];
  return output.value.map(partOfItem);
}

function partOfItem(item: ContentOutputItem): ToolContentPart {
  const loose = item as {
    type: string;
    data?: unknown;
    url?: string;
    mediaType?: string;
    filename?: string;
    providerOptions?: Record<string, { mediaType?: unknown } | undefined>;
  };
  const kept = loose.providerOptions?.[OWN_KEY]?.mediaType;
  switch (loose.type) {
    case "text":
      return { type: "text", text: (item as { text: string }).text };
    case "image-data":
    case "image-url":
      return media("image", loose.mediaType ?? (typeof kept === "string" ? kept : "image/*"), loose);
    case "media":
    case "file-data":
    case "file-url":
    case "file": {
      const mediaType = loose.mediaType ?? "application/octet-stream";
      const kind = mediaType.startsWith("image/")
        ? "image"
        : mediaType.startsWith("audio/")
          ? "audio"
          : "file";
      return media(kind, mediaType, loose);
    }
    default:
      return { type: "text", text: `[${loose.type} content]` };
  }
}

function media(
  type: ToolMediaPart["type"],
  mediaType: string,
  item: { data?: unknown; url?: string; filename?: string },
): ToolContentPart {
  // ai 7's `file` item carries its data as { type: "data" | "url", ... }, or a string / bytes.
  const data = item.data as { type?: string; data?: unknown; url?: URL | string } | string | undefined;
  const where =
    typeof data === "string"
      ? { data }
      : data?.type === "url"
        ? { url: String(data.url) }
        : typeof data?.data === "string"
          ? { data: data.data }
          : { url: item.url ?? "" };
  return { type, mediaType, ...where, ...(item.filename ? { filename: item.filename } : {}) };
}

/** Parts as one text, one part a line, each media part named (see {@link mediaLabel}). */
export function partsText(parts: readonly ToolContentPart[]): string {
  return parts.map((part) => (part.type === "text" ? part.text : mediaLabel(part))).join("\n");
}

/** How a media part is named in text: `[image image/png]`, `[file report.pdf application/pdf]`. */
export function mediaLabel(part: ToolMediaPart): string {
  return `[${part.type}${part.filename ? ` ${part.filename}` : ""} ${part.mediaType}]`;
}
