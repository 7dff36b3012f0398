import { describeThrown } from "../../tools/describe-thrown.js";

/** The most characters of a failure's own text that the message of the error wrapping it quotes. */
const MAX_QUOTED_CHARS = 2_000;

/**
 * What a failure says, for the message of the run's error that wraps it: an error's message, a string as it
 * is, and a provider's error handed over as a plain object its message and code. `@ai-sdk/openai`
 * (Responses) and `@ai-sdk/anthropic` pass an API's `error` event that arrives mid-stream on as the parsed
 * event (`{ type: "error", code: "server_error", message }`, `{ type: "overloaded_error", message }`), not as
 * an `Error`: quoted as `String(value)` it read `[object Object]`. Anything else is written as JSON, bounded.
 * Never throws.
 */
export function failureMessage(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (typeof cause === "string") return cause;
  try {
    return providerErrorText(cause) ?? describeThrown(cause, MAX_QUOTED_CHARS);
  } catch {
    return describeThrown(cause, MAX_QUOTED_CHARS);
  }
}

/** `message (code)` of an API error object, or of the `error` it wraps; undefined for anything else. */
function providerErrorText(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const inner = isRecord(value.error) ? value.error : value;
  const message = [inner.message, value.message].find((m) => typeof m === "string");
  if (typeof message !== "string") return undefined;
  const kind = [inner.code, inner.type, value.code].find((k) => typeof k === "string" && k !== "error");
  return `${message.slice(0, MAX_QUOTED_CHARS)}${typeof kind === "string" ? ` (${kind})` : ""}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
