// Provider values to cassette JSON and back. Keys are sorted, so the same answer is written the same way
// whatever order a provider built it in (a re-recorded cassette diffs only where the model answered
// differently); a file's bytes and a URL become their text as in a snapshot's JSON (`json-data.ts`: bytes
// base64, a URL its href), dates ISO text, an error its name and message.
import type { LanguageModelV3Content, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { isJsonData, jsonDataText } from "../../loop/snapshot/json-data.js";
import type { CassetteJson } from "./cassette.js";

/** `value` as cassette JSON (see the file's header). */
export function cassetteJson(value: unknown): unknown {
  if (value === null || typeof value !== "object") return typeof value === "bigint" ? String(value) : value;
  if (value instanceof Date) return value.toISOString();
  if (isJsonData(value)) return jsonDataText(value);
  if (value instanceof Error) return { message: value.message, name: value.name };
  if (Array.isArray(value)) return value.map((item) => cassetteJson(item) ?? null);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = cassetteJson((value as Record<string, unknown>)[key]);
    if (item !== undefined && typeof item !== "function") out[key] = item;
  }
  return out;
}

/** A JSON object of a cassette (`cassetteJson` of an object). */
export function cassetteObject(value: object): CassetteJson {
  return cassetteJson(value) as CassetteJson;
}

/**
 * A recorded content or stream part as the provider spec wants it back: a response's timestamp a `Date`
 * again, and a file recorded from a V4 model (`data: { type: "data", data }`) in the V3 form the replay
 * model speaks (ai 7 turns it back into V4 itself).
 */
export function revivedPart<T extends LanguageModelV3Content | LanguageModelV3StreamPart>(
  part: CassetteJson,
): T {
  if (part.type === "response-metadata") return revivedResponse(part) as T;
  if (part.type === "file" && typeof part.data === "object" && part.data !== null) {
    const data = part.data as { type?: unknown; data?: unknown; url?: unknown };
    return { ...part, data: data.type === "url" ? new URL(String(data.url)) : data.data } as T;
  }
  return part as T;
}

/** Response metadata with its timestamp a `Date`. */
export function revivedResponse<T extends CassetteJson>(response: T): T {
  const { timestamp } = response;
  return (typeof timestamp === "string" ? { ...response, timestamp: new Date(timestamp) } : response) as T;
}
