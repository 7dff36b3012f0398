// A run's first messages as its log's header keeps them. A picture or a file the caller gave as bytes
// (the AI SDK's `image` and `file` parts: a Uint8Array, a Buffer, an ArrayBuffer, base64 or a `data:`
// URL) is written as a media file beside the log, as a tool result's media is, and the part is written as
// its media record: the header of a run that sent a 2 MB picture was 2 MB of `{"0":137,"1":80,…}`
// (JSON of a Uint8Array), and the issue asks for media as files, not inline. A part by URL keeps its URL;
// every other part and message is kept as it is.
import type { RunLogFile } from "./run-log-file.js";
import type { MediaRecord } from "./run-log-format.js";

/** `prompt` (the messages a run starts with) with each picture's and file's bytes written beside the log. */
export function loggedPrompt(prompt: unknown, file: RunLogFile): unknown {
  if (!Array.isArray(prompt)) return prompt;
  return prompt.map((message: unknown) => {
    if (!isRecord(message) || !Array.isArray(message.content)) return message;
    return { ...message, content: message.content.map((part: unknown) => loggedPart(part, file)) };
  });
}

function loggedPart(part: unknown, file: RunLogFile): unknown {
  if (!isRecord(part) || (part.type !== "image" && part.type !== "file")) return part;
  const type: "image" | "file" = part.type;
  const value = type === "image" ? part.image : part.data;
  const given = typeof part.mediaType === "string" ? part.mediaType : undefined;
  const base = {
    type,
    ...(typeof part.filename === "string" ? { filename: part.filename } : {}),
  } as const;
  const record = (mediaType: string | undefined, bytes: Uint8Array): MediaRecord =>
    file.mediaBytes({ ...base, mediaType: mediaType ?? sniffed(bytes) ?? unknownType(type) }, bytes);
  if (value instanceof URL) return { ...base, mediaType: given ?? unknownType(type), url: value.href };
  if (value instanceof Uint8Array) return record(given, value);
  if (value instanceof ArrayBuffer) return record(given, new Uint8Array(value));
  if (typeof value !== "string") return part;
  const dataUrl = /^data:([^;,]*)(;base64)?,/i.exec(value);
  if (dataUrl) {
    const body = value.slice(dataUrl[0].length);
    const bytes = dataUrl[2] ? Buffer.from(body, "base64") : Buffer.from(percentDecoded(body));
    return record(given ?? (dataUrl[1] || undefined), bytes);
  }
  // A string that is a URL the provider fetches (the AI SDK reads it so); else base64, as the SDK reads it.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value))
    return { ...base, mediaType: given ?? unknownType(type), url: value };
  return record(given, Buffer.from(value, "base64"));
}

/** A `data:` URL's text with its `%xx` escapes decoded; as it is when they are malformed (never a throw). */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The media type of an image the part did not name, by its first bytes (as the AI SDK finds it). */
function sniffed(bytes: Uint8Array): string | undefined {
  const starts = (...head: number[]) => head.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42)
    return "image/webp";
  return undefined;
}

function unknownType(type: "image" | "file"): string {
  return type === "image" ? "image/*" : "application/octet-stream";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
