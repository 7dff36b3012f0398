import type { ToolResultPart } from "ai";

/** The text of a tool result as the model reads it: a text or error result's value, anything else as JSON. */
export function resultText(output: ToolResultPart["output"]): string {
  return output.type === "text" || output.type === "error-text" ? output.value : JSON.stringify(output);
}
