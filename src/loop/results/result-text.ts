import type { ToolResultPart } from "ai";
import { partsOfOutput, partsText } from "./content-output.js";

/**
 * The text of a tool result as the model reads it, and as events, strategies and the stream report it: a
 * text or error result's value; a content result's text parts, each media part named (`[image image/png]`);
 * anything else as JSON.
 */
export function resultText(output: ToolResultPart["output"]): string {
  return partsText(partsOfOutput(output));
}
