import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { JsonSchema } from "./json-schema.js";
import { LazyDependency } from "../lazy/lazy-dependency.js";

type AjvModule = { Ajv: typeof Ajv };
type FormatsPlugin = (ajv: Ajv) => Ajv;

// ajv and ajv-formats are loaded and set up at the first validation, not at import: their load and the
// formats' set-up are a fifth of `import("entity-tools")` otherwise, and a process that never validates
// (a CLI that only prints `--help`) never needs them.
// Formats are checked (a `Date` parameter's `date-time` above all: text that is not a date is a validation
// error, not a call with an Invalid Date); unknown formats in hand-written schemas are ignored quietly.
const ajvModule = new LazyDependency(
  "ajv",
  () => import("ajv"),
  (m) => m as AjvModule,
);
// ajv-formats is CommonJS: its plugin is `default` of the module, or the module itself under some loaders.
const formatsModule = new LazyDependency(
  "ajv-formats",
  () => import("ajv-formats"),
  (m) => ((m as { default?: unknown }).default ?? m) as FormatsPlugin,
);
let engine: Ajv | undefined;

function ajv(): Ajv {
  return (engine ??= formatsModule.get()(
    new (ajvModule.get().Ajv)({ allErrors: true, strict: false, logger: false }),
  ));
}

/** Loads the validator with `import()` (what a bundle needs); validating before it loads it with `require`. */
export async function loadValidator(): Promise<void> {
  await Promise.all([ajvModule.load(), formatsModule.load()]);
}

// Compiled once per schema: bound tools of one class share their schema object, and tools of different
// classes often share a shape (no parameters, one id...), so validators are also shared by content.
// The content cache is bounded (least recently used out first): a server whose runs each bring their own output
// schema would otherwise keep every validator, and ajv's compiled code with it, for ever.
const MAX_CACHED_SCHEMAS = 500;
const byObject = new WeakMap<object, ValidateFunction>();
const byContent = new Map<string, ValidateFunction>();

/** The outcome of validating a value: `ok`, or one line per problem naming the field. */
export type ValidationOutcome = { ok: true } | { ok: false; problems: string[] };

/** Validates `value` against `schema`; its validator is compiled on first use and cached. */
export function validateAgainst(schema: JsonSchema, value: unknown): ValidationOutcome {
  const validator = validatorFor(schema);
  if (validator(value)) return { ok: true };
  return { ok: false, problems: (validator.errors ?? []).map(describeError) };
}

/**
 * Why `schema` cannot be used to validate anything (ajv cannot compile it), or `undefined` when it can; a
 * usable schema's validator is then cached as {@link validateAgainst} would.
 */
export function schemaProblem(schema: JsonSchema): string | undefined {
  try {
    validatorFor(schema);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function validatorFor(schema: JsonSchema): ValidateFunction {
  let validator = byObject.get(schema);
  if (!validator) {
    const content = JSON.stringify(schema);
    validator = byContent.get(content);
    if (validator) {
      // least recently used out first: a hit moves the schema to the back of the line
      byContent.delete(content);
      byContent.set(content, validator);
    } else {
      validator = compile(schema);
      byContent.set(content, validator);
      if (byContent.size > MAX_CACHED_SCHEMAS) forget(byContent.keys().next().value!);
    }
    byObject.set(schema, validator);
  }
  return validator;
}

function compile(schema: JsonSchema): ValidateFunction {
  return ajv().compile(schema);
}

/** Drops a schema from the content cache and from ajv's own (which keys compiled schemas by object). */
function forget(content: string): void {
  const validator = byContent.get(content);
  byContent.delete(content);
  if (validator) engine?.removeSchema(validator.schema as object);
}

function describeError(error: ErrorObject): string {
  const path = error.instancePath ? error.instancePath.slice(1).replace(/\//g, ".") : "";
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `missing required field "${joinPath(path, String(params.missingProperty))}"`;
    case "additionalProperties":
      return `unexpected field "${joinPath(path, String(params.additionalProperty))}"`;
    case "type":
      return `field "${path || "(input)"}" must be ${String(params.type)}`;
    case "enum":
      return `field "${path || "(input)"}" must be one of ${JSON.stringify(params.allowedValues)}`;
    case "format":
      return `field "${path || "(input)"}" must be ${formatName(String(params.format))}`;
    default:
      return `field "${path || "(input)"}" ${error.message ?? "is invalid"}`;
  }
}

function formatName(format: string): string {
  return format === "date-time" ? "a date-time (ISO 8601, e.g. 2026-11-22T10:00:00Z)" : `in ${format} format`;
}

function joinPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** How many validators the content cache holds (for the test that checks it stays bounded). */
export function validatorCacheSize(): number {
  return byContent.size;
}
