import { mediaUrlOf, type ToolContentPart } from "../tools/tool-content.js";

/**
 * What the Codex app-server takes in an `item/tool/call` response (`DynamicToolCallOutputContentItem` in the
 * protocol `codex app-server generate-ts` writes, 0.169): `inputText`, `inputImage` (`imageUrl`: an URL or a
 * data URL) and `inputAudio` (`audioUrl`). Files have no item, so the adapter declares images and audio only
 * and the run gives the model a file as a text description.
 */
export type CodexContentItem =
  | { type: "inputText"; text: string }
  | { type: "inputImage"; imageUrl: string }
  | { type: "inputAudio"; audioUrl: string };

/** The media types Codex takes in a tool result (see {@link CodexContentItem}). */
export const CODEX_RESULT_MEDIA_TYPES: readonly string[] = ["image/*", "audio/*"];

/** A result's parts as Codex content items (a file, which Codex cannot take, is named as text). */
export function codexContentItems(parts: readonly ToolContentPart[]): CodexContentItem[] {
  return parts.map((part): CodexContentItem => {
    if (part.type === "text") return { type: "inputText", text: part.text };
    const url = mediaUrlOf(part);
    if (part.type === "image") return { type: "inputImage", imageUrl: url };
    if (part.type === "audio") return { type: "inputAudio", audioUrl: url };
    return { type: "inputText", text: `[file ${part.filename ?? ""} ${part.mediaType}]` };
  });
}
