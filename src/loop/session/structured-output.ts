import type { JsonSchema } from "../../schema/json-schema.js";
import { findOutputTypeOfSchema } from "../../schema/schema-store.js";
import { validateAgainst } from "../../schema/validate.js";
import { unionProblem } from "../../tools/union-input.js";
import { inputShapeProblem } from "../execution/input-shape.js";

/** The outcome of reading the model's final answer as JSON of a schema. */
export type OutputOutcome = { ok: true; value: unknown } | { ok: false; problems: string[] };

/** The system-prompt paragraph that asks for JSON of `schema`. */
export function outputInstruction(schema: JsonSchema): string {
  return [
    "When you have the final answer, reply with only a JSON object (no prose, no code fence) that matches this JSON Schema:",
    JSON.stringify(schema),
  ].join("\n");
}

/** What the model is told when its answer could not be used. */
export function repairRequest(problems: readonly string[]): string {
  return [
    "Your answer could not be used:",
    ...problems.map((p) => `- ${p}`),
    "Reply again with only the corrected JSON object. Do not call tools to fix this; their results above still stand.",
  ].join("\n");
}

/** Parses the answer (a bare object, or one inside a code fence or surrounding prose) and validates it. */
export function readStructuredOutput(text: string, schema: JsonSchema): OutputOutcome {
  const value = parseJsonObject(text);
  if (value === undefined) {
    return {
      ok: false,
      problems: [text.trim() === "" ? "the answer was empty" : "the answer is not a JSON object"],
    };
  }
  const shape = inputShapeProblem(value);
  if (shape) return { ok: false, problems: [shape] };
  const validation = validateAgainst(schema, value);
  if (!validation.ok) return { ok: false, problems: validation.problems };
  // An output class's union of classes must single out one member for the answer to become an instance.
  const union = unionProblem(value, findOutputTypeOfSchema(schema));
  return union ? { ok: false, problems: [union] } : { ok: true, value };
}

function parseJsonObject(text: string): unknown {
  const candidates = [
    text.trim(),
    fencedBlock(text),
    text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1),
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // try the next reading
    }
  }
  return undefined;
}

/**
 * The inside of the first code fence (an optional `json` tag dropped), found with `indexOf`: a regular
 * expression over an unclosed fence followed by a long run of spaces backtracks quadratically.
 */
function fencedBlock(text: string): string | undefined {
  const open = text.indexOf("```");
  if (open < 0) return undefined;
  const close = text.indexOf("```", open + 3);
  if (close < 0) return undefined;
  const inner = text.slice(open + 3, close);
  return (inner.startsWith("json") ? inner.slice(4) : inner).trim();
}

/** The final answer of a run: structured output when a schema is given, otherwise non-empty text. */
export function readAnswer(text: string, schema: JsonSchema | undefined): OutputOutcome {
  if (schema) return readStructuredOutput(text, schema);
  return text.trim() === "" ? { ok: false, problems: ["the answer was empty"] } : { ok: true, value: text };
}
