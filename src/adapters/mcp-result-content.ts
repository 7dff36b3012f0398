import { partsText } from "../loop/results/content-output.js";
import { ToolContent, type ToolContentPart, type ToolMediaPart } from "../tools/tool-content.js";

/** One content block of an MCP tool result (text, image, audio, resource_link, resource), loosely read. */
interface McpBlock {
  readonly type: string;
  readonly text?: string;
  readonly data?: string;
  readonly mimeType?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly resource?: {
    readonly uri?: string;
    readonly mimeType?: string;
    readonly text?: string;
    readonly blob?: string;
  };
}

/**
 * An MCP tool result's content as what our tool returns: plain text when it is only text (as before), else a
 * `ToolContent` whose parts the model reads as they are:
 * - `image` and `audio` blocks become image and audio parts;
 * - a `resource_link` becomes text that keeps its name, URI, media type and description;
 * - an embedded `resource` with text becomes its text, headed by its URI; one with a blob becomes an
 *   image, audio or file part (by its media type), headed by its URI;
 * - any other block is named (`[<type> content]`).
 * Without content, the structured content is the text, as JSON.
 */
export function mcpResultContent(content: unknown, structured: unknown): string | ToolContent {
  const blocks = Array.isArray(content) ? (content as McpBlock[]) : [];
  const parts = blocks.flatMap(partsOf);
  if (!parts.some((p) => p.type !== "text")) {
    const text = parts.map((p) => (p as { text: string }).text).join("\n");
    return text || (structured ? JSON.stringify(structured) : "");
  }
  return new ToolContent(parts);
}

/** The text of an MCP result's blocks, for an error result (media named, not sent). */
export function mcpResultText(content: unknown): string {
  const blocks = Array.isArray(content) ? (content as McpBlock[]) : [];
  return partsText(blocks.flatMap(partsOf));
}

function partsOf(block: McpBlock): ToolContentPart[] {
  switch (block.type) {
    case "text":
      return [{ type: "text", text: block.text ?? "" }];
    case "image":
    case "audio":
      return typeof block.data === "string"
        ? [{ type: block.type, data: block.data, mediaType: block.mimeType ?? `${block.type}/*` }]
        : [{ type: "text", text: `[${block.type} content without data]` }];
    case "resource_link":
      return [{ type: "text", text: linkText(block) }];
    case "resource":
      return resourceParts(block.resource ?? {});
    default:
      return [{ type: "text", text: `[${block.type} content]` }];
  }
}

/** `[resource link: Text Resource 2 <demo://resource/static/document/2> text/plain: Resource 2: ...]` */
function linkText(block: McpBlock): string {
  const name =
    block.title && block.name && block.title !== block.name
      ? `${block.title} (${block.name})`
      : (block.title ?? block.name);
  const type = block.mimeType ? ` ${block.mimeType}` : "";
  const about = block.description ? `: ${block.description}` : "";
  return `[resource link: ${name ? `${name} ` : ""}<${block.uri ?? ""}>${type}${about}]`;
}

function resourceParts(resource: NonNullable<McpBlock["resource"]>): ToolContentPart[] {
  const mediaType =
    resource.mimeType ?? (resource.text !== undefined ? "text/plain" : "application/octet-stream");
  const head = `[resource <${resource.uri ?? ""}> ${mediaType}]`;
  if (typeof resource.text === "string") return [{ type: "text", text: `${head}\n${resource.text}` }];
  if (typeof resource.blob !== "string") return [{ type: "text", text: `${head} (empty)` }];
  const kind: ToolMediaPart["type"] = mediaType.startsWith("image/")
    ? "image"
    : mediaType.startsWith("audio/")
      ? "audio"
      : "file";
  const filename = resource.uri?.split(/[/\\]/).pop();
  return [
    { type: "text", text: head },
    { type: kind, data: resource.blob, mediaType, ...(kind === "file" && filename ? { filename } : {}) },
  ];
}
