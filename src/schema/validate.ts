import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { JsonSchema } from "./json-schema.js";
import { LazyDependency } from "../lazy/lazy-dependency.js";
import { describeGrouped } from "./union-errors.js";
import { describeSafeIntegerBound, withSafeIntegers } from "./safe-integers.js";

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
const newAjv = (): Ajv =>
  formatsModule.get()(new (ajvModule.get().Ajv)({ allErrors: true, strict: false, logger: false }));

/** Loads the validator with `import()` (what a bundle needs); validating before it loads it with `require`. */
export async function loadValidator(): Promise<void> {
  await Promise.all([ajvModule.load(), formatsModule.load()]);
}

// Compiled once per schema: bound tools of one class share their schema object, and tools of different
// classes often share a shape (no parameters, one id...), so validators are also shared by content.
// The content cache is bounded (least recently used out first): a server whose runs each bring their own
// output schema would otherwise keep every validator for ever. Dropping a validator is not enough: an ajv
// instance keeps every function it compiled in its code scope, which `removeSchema` does not prune. So
// schemas are compiled in generations: an ajv compiles at most MAX_CACHED_SCHEMAS schemas, then a fresh
// one takes over; a validator of a retired ajv is compiled again when next used, and a retired ajv is
// garbage once the cache holds none of its validators (after at most MAX_CACHED_SCHEMAS more compiles).
const MAX_CACHED_SCHEMAS = 500;

/** One ajv and how many schemas it compiled, and how many of its validators the content cache holds. */
interface Generation {
  ajv?: Ajv;
  compiled: number;
  cached: number;
}

/** A generation's ajv, made when it first compiles. */
function ajvOf(generation: Generation): Ajv {
  return (generation.ajv ??= newAjv());
}

// The first generation's ajv is made on first use, so importing the package loads no validator.
let current: Generation = { compiled: 0, cached: 0 };
const generationOf = new WeakMap<ValidateFunction, Generation>();
/** The retired generations the content cache still holds validators of. */
const retired = new Set<Generation>();
const byObject = new WeakMap<object, ValidateFunction>();
const byContent = new Map<string, ValidateFunction>();

/**
 * The most problems a validation describes: the model fixes a call from the first ones, and a value with
 * thousands of wrong items would otherwise be answered with thousands of lines (and the CPU to make them).
 */
const MAX_PROBLEMS = 20;

/**
 * The outcome of validating a value: `ok`, or one line per problem naming the field (at most
 * {@link MAX_PROBLEMS}, then `and N more problems`).
 */
export type ValidationOutcome = { ok: true } | { ok: false; problems: string[] };

/** Validates `value` against `schema`; its validator is compiled on first use and cached. */
export function validateAgainst(schema: JsonSchema, value: unknown): ValidationOutcome {
  const validator = validatorFor(schema);
  if (validator(value)) return { ok: true };
  return {
    ok: false,
    problems: describeGrouped(schema, validator.errors ?? [], describeError, MAX_PROBLEMS),
  };
}

/**
 * Why `schema` is not a valid JSON Schema (it fails ajv's meta-schema), in the words ajv's compile would
 * throw (`schema is invalid: data/properties/x/type must be …`), or `undefined`. Compiling checks this
 * first; checking it alone runs a compiled validator over the schema instead of generating code for it,
 * hundreds of times cheaper (about 5 µs against 4 ms of CPU for a five-field schema), so a listing of
 * 10 000 tools can check each one and compile none.
 */
export function metaSchemaProblem(schema: JsonSchema): string | undefined {
  // An ajv of its own, with the compiling ones' options (so the same errors, in the same words): it only
  // validates schemas, so it compiles nothing but the meta-schema and never grows.
  const checker = (shapeChecker ??= newAjv());
  try {
    if (checker.validateSchema(schema) === true) return undefined;
    return `schema is invalid: ${checker.errorsText(checker.errors)}`;
  } catch (error) {
    // a `$schema` naming a meta-schema ajv does not know: compile throws the same
    return error instanceof Error ? error.message : String(error);
  }
}

let shapeChecker: Ajv | undefined;

function validatorFor(schema: JsonSchema): ValidateFunction {
  const known = byObject.get(schema);
  if (known && generationOf.get(known) === current) return known;
  const content = JSON.stringify(schema);
  let validator = byContent.get(content);
  if (validator) {
    // least recently used out first: a hit moves the schema to the back of the line
    byContent.delete(content);
    release(validator);
  }
  if (!validator || generationOf.get(validator) !== current) validator = compile(schema);
  byContent.set(content, validator);
  generationOf.get(validator)!.cached++;
  if (byContent.size > MAX_CACHED_SCHEMAS) forget(byContent.keys().next().value!);
  byObject.set(schema, validator);
  return validator;
}

function compile(schema: JsonSchema): ValidateFunction {
  if (current.compiled >= MAX_CACHED_SCHEMAS) {
    if (current.cached > 0) retired.add(current);
    current = { compiled: 0, cached: 0 };
  }
  // Each schema is its own document (a tool's input, a run's output). One that names itself or a part of
  // itself with `$id` gets an ajv of its own: in a shared one, a second schema claiming the same id
  // (generators stamp one `$id` on every schema, at the root or on a definition) is refused as a clash.
  // ajv still registers the ids in its own, which a schema's references to itself need.
  const generation = hasSchemaId(schema) ? { ajv: newAjv(), compiled: 0, cached: 0 } : current;
  const validator = ajvOf(generation).compile(withSafeIntegers(schema));
  generation.compiled++;
  generationOf.set(validator, generation);
  return validator;
}

/** Whether `value` has an `$id` anywhere (a schema's ids are what ajv registers). */
function hasSchemaId(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasSchemaId);
  if (typeof value !== "object" || value === null) return false;
  for (const [key, inner] of Object.entries(value))
    if ((key === "$id" && typeof inner === "string") || hasSchemaId(inner)) return true;
  return false;
}

/** Drops a schema from the content cache, and from its ajv's own cache (which keys schemas by object). */
function forget(content: string): void {
  const validator = byContent.get(content);
  byContent.delete(content);
  if (!validator) return;
  release(validator);
  generationOf.get(validator)!.ajv?.removeSchema(validator.schema as object);
}

/** One validator fewer in the content cache: a retired ajv with none left is let go. */
function release(validator: ValidateFunction): void {
  const generation = generationOf.get(validator)!;
  generation.cached--;
  if (generation.cached === 0) retired.delete(generation);
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
    case "const":
      return `field "${path || "(input)"}" must be ${JSON.stringify(params.allowedValue)}`;
    case "maximum":
    case "minimum":
      return (
        describeSafeIntegerBound(path || "(input)", params.limit) ??
        `field "${path || "(input)"}" ${error.message ?? "is invalid"}`
      );
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

/**
 * How many compiled schemas the ajv instances behind the content cache hold in their code scope (for the
 * test that checks it stays bounded; at most twice the cache's size).
 */
export function compiledSchemasHeld(): number {
  let held = current.compiled;
  for (const generation of retired) held += generation.compiled;
  return held;
}
