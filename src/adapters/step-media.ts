import type { ModelMessage } from "ai";
import { partsOfOutput } from "../loop/results/content-output.js";
import { acceptsMedia, type ToolResultMediaTypes } from "../loop/results/media-types.js";
import { buildToolOutput } from "../loop/results/tool-output.js";
import { ToolContent } from "../tools/tool-content.js";

/** The media a step's model takes in a tool result, and the warnings of the parts described to it. */
export interface StepMedia {
  readonly types: ToolResultMediaTypes;
  readonly warnings: string[];
}

/** No limit: the result was held to the run's limits when it was made; only its media are looked at here. */
const KEPT = { maxChars: Number.MAX_SAFE_INTEGER, maxMediaBytes: Number.MAX_SAFE_INTEGER };

/**
 * `messages` (what a step is about to convert) with each media part of a tool result that `types` leaves
 * out replaced by the text description a run makes of such a part when it builds the result (one rule:
 * `buildToolOutput`), and its warning added to `warnings`. A run builds its results for the media its model
 * takes when the run starts; a model given by id may resolve to another model at a later step (a default
 * provider that routes each call), which is sent only what it takes. Nothing to describe: `messages` itself.
 */
export function describeMedia(
  messages: ModelMessage[],
  types: ToolResultMediaTypes,
  warnings: string[],
): ModelMessage[] {
  let changed = false;
  const described = messages.map((message) => {
    if (message.role !== "tool") return message;
    let touched = false;
    const content = message.content.map((part) => {
      if (part.type !== "tool-result" || part.output.type !== "content") return part;
      const parts = partsOfOutput(part.output);
      if (parts.every((p) => p.type === "text" || acceptsMedia(types, p.mediaType))) return part;
      const built = buildToolOutput(part.toolName, new ToolContent(parts), { ...KEPT, mediaTypes: types });
      warnings.push(...built.warnings);
      touched = true;
      return { ...part, output: built.output };
    });
    if (!touched) return message;
    changed = true;
    return { ...message, content };
  });
  return changed ? described : messages;
}
