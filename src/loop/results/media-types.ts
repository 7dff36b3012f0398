/**
 * The media a backend's model takes inside a tool result, as media type patterns: `"image/*"`,
 * `"application/pdf"`, `"*\/*"`. An empty list: text only. A backend that declares none (undefined) takes
 * every part as it is, and its provider decides.
 */
export type ToolResultMediaTypes = readonly string[];

/** Whether `mediaType` matches one of `types` (undefined: any). Parameters (`; charset=`) are ignored. */
export function acceptsMedia(types: ToolResultMediaTypes | undefined, mediaType: string): boolean {
  if (types === undefined) return true;
  const [type = "", subtype = ""] = mediaType.split(";")[0]!.trim().toLowerCase().split("/");
  return types.some((pattern) => {
    const [t, s] = pattern.toLowerCase().split("/");
    return (t === "*" || t === type) && (s === "*" || s === subtype);
  });
}
