import type { JsonSchema } from "./json-schema.js";

// A JSON number past 2^53 reaches a tool already changed: `JSON.parse` reads 9007199254740993 as
// 9007199254740992, and ajv's `integer` accepts that. A method that takes an id, an amount in cents or a
// count would run on another number than the model sent, silently. So an integer field is validated as
// bounded to the integers a JavaScript number holds exactly: one outside is refused with a message that
// says so (`describeSafeIntegerBound`), and the model can send it again as text. A `number` field is not
// bounded: a float is approximate by nature (`6.02e23` is a fine number).

/** Keys whose values are data, not subschemas: what they hold is never bounded. */
const DATA_KEYS = new Set(["const", "enum", "default", "examples", "example"]);

/**
 * The schema ajv compiles for `schema`: each subschema of type `integer` (alone or in a list of types) with
 * `minimum` and `maximum` held within ±`Number.MAX_SAFE_INTEGER` (a tighter bound of its own is kept).
 * `schema` itself is not changed; one with no integer is returned as it is. The copy keeps every path, so
 * ajv's errors point into `schema` too.
 */
export function withSafeIntegers(schema: JsonSchema): JsonSchema {
  if (!JSON.stringify(schema).includes('"integer"')) return schema;
  const copy = structuredClone(schema) as unknown;
  const stack: unknown[] = [copy];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const item of node as unknown[]) stack.push(item);
      continue;
    }
    if (typeof node !== "object" || node === null) continue;
    const record = node as Record<string, unknown>;
    const type = record.type;
    if (type === "integer" || (Array.isArray(type) && type.includes("integer"))) bound(record);
    for (const [key, value] of Object.entries(record)) if (!DATA_KEYS.has(key)) stack.push(value);
  }
  return copy as JsonSchema;
}

function bound(record: Record<string, unknown>): void {
  const { maximum, minimum } = record;
  if (maximum === undefined || (typeof maximum === "number" && maximum > Number.MAX_SAFE_INTEGER))
    record.maximum = Number.MAX_SAFE_INTEGER;
  if (minimum === undefined || (typeof minimum === "number" && minimum < -Number.MAX_SAFE_INTEGER))
    record.minimum = -Number.MAX_SAFE_INTEGER;
}

/**
 * What the model reads for a value past the bound {@link withSafeIntegers} adds, or undefined for another
 * `maximum`/`minimum` failure.
 */
export function describeSafeIntegerBound(field: string, limit: unknown): string | undefined {
  if (limit !== Number.MAX_SAFE_INTEGER && limit !== -Number.MAX_SAFE_INTEGER) return undefined;
  return (
    `field "${field}" must be an integer from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}: ` +
    "a larger one does not reach the tool exactly (a JavaScript number loses its last digits)"
  );
}
