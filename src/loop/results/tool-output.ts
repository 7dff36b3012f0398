import type { ToolResultPart } from "ai";
import { serializeToolResult } from "../../tools/serialize-result.js";
import { sendableToolName } from "../../tools/tool-name-rules.js";
import { isToolContent, type ToolContentPart, type ToolMediaPart } from "../../tools/tool-content.js";
import { contentItemOf, mediaLabel, partsText, type ToolOutput } from "./content-output.js";
import { acceptsMedia, type ToolResultMediaTypes } from "./media-types.js";

/** What decides how a tool's value reaches the model. */
export interface ToolOutputLimits {
  /** Most characters of text (all text parts together); media parts do not count. */
  readonly maxChars: number;
  /** Most bytes of media (all media parts together, decoded; a URL counts 0): past it a part is left out. */
  readonly maxMediaBytes: number;
  /** The media the model takes in a tool result; undefined: everything. */
  readonly mediaTypes?: ToolResultMediaTypes;
}

/** A tool's value as the model reads it, and what observers should be warned of. */
export interface BuiltToolOutput {
  readonly output: ToolOutput;
  /** The text the model reads (media parts named), for events and strategies. */
  readonly text: string;
  /** A media part the model could not take, or that passed the byte limit: one `ModelWarning` each. */
  readonly warnings: readonly string[];
}

/**
 * The output of a tool call: a plain value as text (`serializeToolResult`); a `ToolContent` as the AI SDK's
 * content output, its text held to `maxChars` in total, its media to `maxMediaBytes` in total, and each
 * media part the model cannot take (see `ToolResultMediaTypes`) replaced by a text description. A result
 * left with no media is a text output, as before.
 *
 * @throws whatever reading the value throws (a getter, a Proxy trap): the caller reports it.
 */
export function buildToolOutput(toolName: string, value: unknown, limits: ToolOutputLimits): BuiltToolOutput {
  if (!isToolContent(value)) {
    const text = serializeToolResult(value, { maxChars: limits.maxChars });
    return { output: { type: "text", value: text }, text, warnings: [] };
  }
  const warnings: string[] = [];
  const parts: ToolContentPart[] = [];
  let chars = 0;
  let bytes = 0;
  let cut = false;
  const addText = (text: string) => {
    const room = limits.maxChars - chars;
    if (room <= 0 && text.length > 0 && !cut) {
      cut = true;
      parts.push({
        type: "text",
        text: `[truncated: the result's text passed ${limits.maxChars} characters]`,
      });
    }
    if (room <= 0) return;
    const shown = serializeToolResult(text, { maxChars: room });
    chars += Math.min(text.length, room);
    parts.push({ type: "text", text: shown });
  };
  for (const item of value.items) {
    if (item.type === "value") addText(serializeToolResult(item.value, { maxChars: limits.maxChars }));
    else if (item.type === "text") addText(item.text);
    else {
      const size = byteLength(item);
      if (!acceptsMedia(limits.mediaTypes, item.mediaType)) {
        warnings.push(
          `The result of "${toolName}" holds ${describe(item, size)}, which this model does not take in a tool result; it read a text description instead`,
        );
        parts.push({
          type: "text",
          text: `${mediaLabel(item)} (not shown: this model does not take ${item.mediaType} in tool results)`,
        });
      } else if (bytes + size > limits.maxMediaBytes) {
        warnings.push(
          `The result of "${toolName}" holds ${describe(item, size)}, left out: the result's media would pass ${limits.maxMediaBytes} bytes (withMaxResultMediaBytes)`,
        );
        parts.push({
          type: "text",
          text: `${mediaLabel(item)} (not shown: ${size} bytes, over the limit of ${limits.maxMediaBytes} bytes for a result's media)`,
        });
      } else {
        bytes += size;
        parts.push(item);
      }
    }
  }
  const text = partsText(parts);
  if (!parts.some((p) => p.type !== "text")) return { output: { type: "text", value: text }, text, warnings };
  return { output: { type: "content", value: parts.map(contentItemOf) }, text, warnings };
}

/** `output` with `text` added at its end (a notice): a text output's text, or a content output's last part. */
export function appendToOutput(output: ToolOutput, text: string): ToolOutput {
  if (output.type === "content") return { type: "content", value: [...output.value, { type: "text", text }] };
  if (output.type === "text" || output.type === "error-text")
    return { ...output, value: `${output.value}${text}` };
  return output;
}

/** The decoded size of a media part's bytes (0 for a URL). */
function byteLength(part: ToolMediaPart): number {
  if (part.data === undefined) return 0;
  const padding = part.data.endsWith("==") ? 2 : part.data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((part.data.length * 3) / 4) - padding);
}

function describe(part: ToolMediaPart, size: number): string {
  const article = part.type === "file" ? "a" : "an"; // an image, an audio clip
  return `${article} ${part.type === "audio" ? "audio clip" : part.type} (${part.mediaType}${part.data === undefined ? ", by URL" : `, ${size} bytes`})`;
}

/** The result part of a call as the model's history holds it: its output, under the call's id and name. */
export function resultPart(
  { toolCallId, toolName }: { readonly toolCallId: string; readonly toolName: string },
  output: ToolOutput,
): ToolResultPart {
  return { type: "tool-result", toolCallId, toolName: sendableToolName(toolName), output };
}
