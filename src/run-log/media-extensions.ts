// The one table of media types and the file extensions a run log writes media files with: the log names a
// file by it, and the viewer serves the file (and the `--html` export inlines it) as the type its extension
// names. The viewer sits above the log, so the table lives here.

/** Each media type a run log knows, and the extension its media files get (any other type: `bin`). */
const EXTENSIONS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "audio/wav": "wav",
  "audio/mpeg": "mp3",
  "application/pdf": "pdf",
  "text/plain": "txt",
};

const MEDIA_TYPES: ReadonlyMap<string, string> = new Map(
  Object.entries(EXTENSIONS).map(([type, extension]) => [extension, type]),
);

/** The file extension (without its dot) a media file of `mediaType` is written with; `bin` for a type not known. */
export function mediaExtensionOf(mediaType: string): string {
  return EXTENSIONS[mediaType.toLowerCase()] ?? "bin";
}

/** The media type of a media file by its name's extension (`1.png`: `image/png`); undefined when not known. */
export function mediaTypeOfFile(file: string): string | undefined {
  const dot = file.lastIndexOf(".");
  return dot === -1 ? undefined : MEDIA_TYPES.get(file.slice(dot + 1).toLowerCase());
}
