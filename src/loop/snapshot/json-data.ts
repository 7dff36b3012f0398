// The one JSON form of the AI SDK's data that is not plain JSON, for everything that writes a model's
// messages or answers as JSON (a snapshot, a cassette): a file's bytes (`Uint8Array`, `Buffer`,
// `ArrayBuffer`) as base64 text, a URL (an image or file by URL, `data:` URLs too) as its text, the forms
// the AI SDK reads back as the same bytes or URL. JSON's own would lose them: a `Uint8Array` becomes
// `{"0":137,…}`, a `Buffer` `{"type":"Buffer","data":[…]}`, an `ArrayBuffer` `{}`.

/** A file's bytes or a URL: the AI SDK's data that plain JSON cannot hold as it is. */
export type JsonData = Uint8Array | ArrayBuffer | URL;

/** Whether `value` is a file's bytes or a URL (see {@link jsonDataText}). */
export function isJsonData(value: object): value is JsonData {
  return value instanceof Uint8Array || value instanceof ArrayBuffer || value instanceof URL;
}

/** The JSON text of a file's bytes (base64, of the view's own bytes only) or of a URL (its `href`). */
export function jsonDataText(value: JsonData): string {
  if (value instanceof URL) return value.href;
  const bytes = value instanceof Uint8Array ? value : new Uint8Array(value);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}
