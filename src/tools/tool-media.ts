import { ToolContent, type ToolMediaPart } from "./tool-content.js";

/**
 * Where media comes from: its bytes (`Uint8Array`, a Node `Buffer`, an `ArrayBuffer`), the bytes already
 * base64 encoded (a string), or a `URL` the provider fetches.
 */
export type MediaSource = Uint8Array | ArrayBuffer | string | URL;

/** Options of {@link toolFile}. */
export interface ToolFileOptions {
  /** The file's name, for providers that show it. */
  readonly filename?: string | undefined;
}

/**
 * An image as a tool result (or, inside `toolContent`, one part of it): a vision model sees the picture.
 *
 * ```ts
 * @LlmTool("The scanned invoice")
 * scan() { return toolImage(readFileSync("invoice.png"), "image/png"); }
 * ```
 *
 * @throws TypeError for a media type that is not an image type (`image/...`).
 */
export function toolImage(source: MediaSource, mediaType: string): ToolContent {
  return media("image", source, mediaType);
}

/**
 * A sound as a tool result (or one part of it), for models that listen.
 *
 * @throws TypeError for a media type that is not an audio type (`audio/...`).
 */
export function toolAudio(source: MediaSource, mediaType: string): ToolContent {
  return media("audio", source, mediaType);
}

/**
 * A file (a PDF, a spreadsheet) as a tool result (or one part of it), for providers that read documents.
 *
 * @throws TypeError for a media type that is not `type/subtype`.
 */
export function toolFile(source: MediaSource, mediaType: string, options: ToolFileOptions = {}): ToolContent {
  return media("file", source, mediaType, options.filename);
}

const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;.*)?$/i;

function media(
  type: ToolMediaPart["type"],
  source: MediaSource,
  mediaType: string,
  filename?: string,
): ToolContent {
  if (typeof mediaType !== "string" || !MEDIA_TYPE.test(mediaType))
    throw new TypeError(`"${String(mediaType)}" is not a media type: give one such as "image/png"`);
  if (type !== "file" && !mediaType.toLowerCase().startsWith(`${type}/`))
    throw new TypeError(`"${mediaType}" is not an ${type} media type: give one such as "${type}/..."`);
  const where = source instanceof URL ? { url: source.href } : { data: base64Of(source) };
  return new ToolContent([{ type, mediaType, ...where, ...(filename ? { filename } : {}) }]);
}

/** The bytes as base64 (a string is taken as already encoded). */
function base64Of(source: Uint8Array | ArrayBuffer | string): string {
  if (typeof source === "string") return source;
  const bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
  const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
