import { serializeToolResult } from "../../tools/serialize-result.js";

/**
 * What a thrown value says, as the model may read it: an error's message, a string as is, anything else
 * serialized like a result (so `@Exclude()` fields of a thrown object never reach the model), at most
 * `maxChars` long. Never throws, whatever was thrown (a revoked Proxy, a getter that throws).
 */
export function describeThrown(thrown: unknown, maxChars: number): string {
  try {
    if (thrown instanceof Error) return cap(thrown.message || thrown.name, maxChars);
    if (typeof thrown === "string") return cap(thrown, maxChars);
    return serializeToolResult(thrown, { maxChars });
  } catch {
    return "(the thrown value could not be read)";
  }
}

/**
 * What was thrown, for an operator (a failed call's `cause` in the run log): an error as its name and
 * message (`TypeError: …`), anything else as {@link describeThrown} says it, at most `maxChars` long.
 * Never throws.
 */
export function describeCause(thrown: unknown, maxChars: number): string {
  try {
    if (thrown instanceof Error) return cap(`${thrown.name}: ${thrown.message}`, maxChars);
  } catch {
    // A getter that throws: said below as describeThrown says it.
  }
  return describeThrown(thrown, maxChars);
}

function cap(text: string, maxChars: number): string {
  return serializeToolResult(text, { maxChars });
}
