// Provider values to cassette JSON and back. Keys are sorted, so the same answer is written the same way
// whatever order a provider built it in (a re-recorded cassette diffs only where the model answered
// differently); a file's bytes and a URL become their text as in a snapshot's JSON (`json-data.ts`: bytes
// base64, a URL its href), dates ISO text, an error its name and message, a bigint its digits. A value JSON
// has no form for (a cycle, nesting deeper than `MAX_JSON_DEPTH`: only from a model of the caller's own) is
// refused by the one rule of `json-form-problem.ts`, naming where it is, before the conversion (which the
// depth bound keeps from overflowing the stack) starts.
import type { LanguageModelV3Content, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { EntityToolsError } from "../../errors/entity-tools-error.js";
import { bigintAsDigits } from "../../tools/bigint-as-digits.js";
import { isJsonData, jsonDataText } from "../../loop/snapshot/json-data.js";
import { jsonFormProblem, problemText, type ValuePath } from "../../loop/snapshot/json-form-problem.js";
import type { CassetteJson } from "./cassette.js";

/**
 * `value` as cassette JSON (see the file's header); `at` is where it is in the recorded call, for the error.
 *
 * @throws EntityToolsError naming a cycle or a too deep value: the model's answer is not recorded
 */
export function cassetteJson(value: unknown, at: ValuePath = []): unknown {
  const problem = jsonFormProblem(value, { bigints: true, leaf: writtenAsText, at });
  if (problem)
    throw new EntityToolsError(
      `recordModel cannot write the model's answer to the cassette: ${problemText(problem)}, which a cassette, ` +
        "plain JSON, cannot hold. The call was not recorded.",
    );
  return converted(value);
}

/** A date or an error: written as text (its ISO form; its name and message) without going into it. */
function writtenAsText(value: object): boolean {
  return value instanceof Date || value instanceof Error;
}

function converted(value: unknown): unknown {
  if (value === null || typeof value !== "object") return bigintAsDigits(value);
  if (value instanceof Date) return value.toISOString();
  if (isJsonData(value)) return jsonDataText(value);
  if (value instanceof Error) return { message: value.message, name: value.name };
  if (Array.isArray(value)) return value.map((item) => converted(item) ?? null);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = converted((value as Record<string, unknown>)[key]);
    if (item !== undefined && typeof item !== "function") out[key] = item;
  }
  return out;
}

/** A JSON object of a cassette (`cassetteJson` of an object at `at`). */
export function cassetteObject(value: object, at: ValuePath): CassetteJson {
  return cassetteJson(value, at) as CassetteJson;
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
