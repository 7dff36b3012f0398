// A tool result is text by default: whatever a tool returns is serialized for the model. A picture, a sound
// or a document cannot be read that way, so a tool returns them as parts, and the loop hands the parts to
// the model as the AI SDK's content tool output. Bytes are held as base64 text, so a history or a snapshot
// holding them is plain JSON.

/** Text the model reads, as one part of a tool result. */
export interface ToolTextPart {
  /** The part's kind: text. */
  readonly type: "text";
  /** The text. */
  readonly text: string;
}

/**
 * An image, a sound or a file the model reads, as one part of a tool result: its bytes (`data`, base64) or
 * where it is (`url`), exactly one of the two, with its IANA media type.
 */
export interface ToolMediaPart {
  /** The part's kind: a picture, a sound or another file. */
  readonly type: "image" | "audio" | "file";
  /** IANA media type: `image/png`, `audio/wav`, `application/pdf`. */
  readonly mediaType: string;
  /** The bytes, base64 encoded. */
  readonly data?: string;
  /** An `https:` (or `data:`) URL the provider fetches instead. */
  readonly url?: string;
  /** A file's name, for providers that show it. */
  readonly filename?: string;
}

/** One part of a tool result that is not only text. */
export type ToolContentPart = ToolTextPart | ToolMediaPart;

/** A value a tool returned beside its parts (an entity, a list): sent as text, searched by discovery. */
export interface ToolValueItem {
  /** The item's kind: a value. */
  readonly type: "value";
  /** The value, as the tool returned it. */
  readonly value: unknown;
}

/** One item of a {@link ToolContent}, in the order the model reads them. */
export type ToolContentItem = ToolContentPart | ToolValueItem;

const BRAND = Symbol.for("entity-tools.tool-content");

/**
 * A tool result made of parts (text, images, audio, files), as `toolContent`, `toolImage`, `toolAudio` and
 * `toolFile` build it. Returned from an `@LlmTool` method or a `defineTool` tool, it reaches the model as
 * those parts, where the model's provider takes them (else as a text description, with a `ModelWarning`).
 *
 * A value item (an entity, a list) is sent as text, the way a plain result is, and discovery looks for
 * providers among the values, never in the parts.
 */
export class ToolContent {
  /** Marks a tool content across copies of the package (see `isToolContent`). */
  readonly [BRAND] = true;

  constructor(
    /** The result's items, in the order the model reads them. */
    readonly items: readonly ToolContentItem[],
  ) {}

  /** The values among the items: where discovery looks for providers. */
  get values(): unknown[] {
    return this.items.flatMap((item) => (item.type === "value" ? [item.value] : []));
  }
}

/** Whether `value` is a {@link ToolContent}; true across copies of the package too. */
export function isToolContent(value: unknown): value is ToolContent {
  return typeof value === "object" && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
}

/** Whether a part is media (an image, a sound, a file) rather than text. */
export function isMediaPart(part: ToolContentPart): part is ToolMediaPart {
  return part.type !== "text";
}

/** Where a media part is, as one URL: its own URL, or a `data:` URL of its bytes. */
export function mediaUrlOf(part: ToolMediaPart): string {
  return part.url ?? `data:${part.mediaType};base64,${part.data ?? ""}`;
}

/**
 * A tool result of several items, in order: text, the parts `toolImage`/`toolAudio`/`toolFile` made, and
 * any other value (an entity, a list), which is sent as text as a plain result is and searched for
 * providers by discovery.
 *
 * ```ts
 * @LlmTool("Chart this customer's monthly spend")
 * spendChart() { return toolContent("Monthly spend, last 12 months:", toolImage(png, "image/png")); }
 * ```
 */
export function toolContent(...items: readonly unknown[]): ToolContent {
  return new ToolContent(
    items.flatMap((item): ToolContentItem[] => {
      if (isToolContent(item)) return [...item.items];
      if (typeof item === "string") return [{ type: "text", text: item }];
      return [{ type: "value", value: item }];
    }),
  );
}
