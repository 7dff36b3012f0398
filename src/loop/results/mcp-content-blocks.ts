import type { ToolContentPart } from "../../tools/tool-content.js";

/** An MCP tool result content block, as our MCP server and the Claude backend's tool server send it. */
export type McpContentBlock =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; mimeType: string; blob: string } }
  | { type: "resource_link"; uri: string; name: string; mimeType: string };

/**
 * A result's parts as MCP content blocks (SDK-free, for `src/mcp` and `src/claude`): text as `text`, image
 * and audio bytes as `image` and `audio` blocks, a file's bytes as an embedded `resource` (blob), and media
 * given by URL as a `resource_link`.
 */
export function mcpContentBlocks(parts: readonly ToolContentPart[]): McpContentBlock[] {
  return parts.map((part, index): McpContentBlock => {
    if (part.type === "text") return { type: "text", text: part.text };
    const name = part.filename ?? `${part.type}-${index + 1}`;
    if (part.data === undefined)
      return { type: "resource_link", uri: part.url ?? "", name, mimeType: part.mediaType };
    if (part.type === "file")
      return {
        type: "resource",
        resource: {
          uri: `entity-tools:result/${encodeURIComponent(name)}`,
          mimeType: part.mediaType,
          blob: part.data,
        },
      };
    return { type: part.type, data: part.data, mimeType: part.mediaType };
  });
}
