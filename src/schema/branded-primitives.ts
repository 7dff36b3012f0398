// A branded id, `type CustomerId = string & { readonly __brand: "CustomerId" }` (or `number & …`, or the
// `unique symbol` form `string & { readonly [brand]: unique symbol }`), is a string or a number to
// everything but the type checker: its object part exists only in types. typescript-json-schema merges an
// intersection's members into one object schema (`noExtraProps`), so it gave a branded id the schema of an
// object requiring `__brand`, which the model cannot meet with an id.
//
// A brand is recognised by what makes it safe to drop: an intersection with exactly one primitive member,
// `string`, `number` or `bigint`, whose other members are object types (not classes or built-in objects
// such as `Date`, `Map`, `Error`, whose members are real; not arrays, functions, nor index signatures)
// declaring only properties that primitive does not have. Such properties cannot be on a JSON value, so
// they are phantom and the schema is the primitive's; the value reaches the method as it came. Any other
// intersection with a primitive (`string & { length: 3 }`, whose `length` is a string's own) is refused
// where it is met (type-reading.ts): its schema would be an object no string is.
//
// The generator reads a brand as its primitive through its private `getTypeDefinition`, checked by what it
// does once per process as the `Record` completion is (mapped-records.ts); where it does not work, a brand
// is refused where it is met, naming class, method and parameter.
import type * as TS from "typescript";
import type { JsonSchemaGenerator } from "typescript-json-schema";
import { CheckedCompletion } from "./generator-probe.js";
import type { JsonSchema } from "./json-schema.js";
import ts, { COMPILER_INSTALL } from "./typescript.js";

/** The primitive a brand may be built on. */
const BRANDABLE = ts.TypeFlags.String | ts.TypeFlags.Number | ts.TypeFlags.BigInt;
/** The members that make an intersection one a JSON value (not an object) would have to satisfy. */
const PRIMITIVE =
  ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike | ts.TypeFlags.BooleanLike;

/** The generator's method this completion goes through (typescript-json-schema 0.68, private there). */
interface GeneratorInternals {
  getTypeDefinition(type: TS.Type, ...rest: unknown[]): JsonSchema;
}

/** The completion that reads a brand as its primitive: a string brand must get `{ "type": "string" }`. */
export const brandHook = new CheckedCompletion(
  completeBrands,
  `interface Probe { r: string & { readonly __brand: "Probe" }; }`,
  { type: "string" },
);

/** The primitive (`string`, `number`, `bigint`) a brand is built on, when `type` is a brand (see above). */
export function brandedPrimitive(checker: TS.TypeChecker, type: TS.Type): TS.Type | undefined {
  if (!type.isIntersection()) return undefined;
  const primitives = type.types.filter((part) => part.flags & BRANDABLE);
  if (primitives.length !== 1) return undefined;
  const primitive = primitives[0]!;
  const own = new Set(
    checker.getPropertiesOfType(checker.getApparentType(primitive)).map((p) => p.escapedName),
  );
  const phantom = (part: TS.Type) =>
    (part.flags & ts.TypeFlags.Object) !== 0 &&
    // A class, or a type with a value of its name: a built-in object (`interface Map` beside `var Map`).
    !((part.getSymbol()?.flags ?? 0) & ts.SymbolFlags.Value) &&
    !checker.isArrayType(part) &&
    !checker.isTupleType(part) &&
    part.getCallSignatures().length === 0 &&
    part.getConstructSignatures().length === 0 &&
    checker.getIndexInfosOfType(part).length === 0 &&
    checker.getPropertiesOfType(part).every((p) => !own.has(p.escapedName));
  return type.types.every((part) => part === primitive || phantom(part)) ? primitive : undefined;
}

/**
 * Why an intersection with a primitive member cannot be generated, or undefined when `type` is none (or a
 * brand the generator reads). `text` prints a type for the message.
 */
export function primitiveIntersectionProblem(
  checker: TS.TypeChecker,
  type: TS.Type,
  text: (type: TS.Type) => string,
): string | undefined {
  if (!type.isIntersection()) return undefined;
  const primitive = type.types.find((part) => part.flags & PRIMITIVE);
  if (!primitive) return undefined;
  if (brandedPrimitive(checker, type)) {
    if (brandHook.works) return undefined;
    return (
      `is a branded ${text(primitive)}, whose schema the installed typescript-json-schema does not generate ` +
      `(it would ask for an object): type it ${text(primitive)} and cast it to the brand in the method, or ` +
      COMPILER_INSTALL
    );
  }
  return (
    `is an intersection of ${text(primitive)} with an object type that is no brand (a brand's object types ` +
    `declare only properties a ${text(primitive)} does not have): its schema would ask for an object, which ` +
    `no ${text(primitive)} is; type it ${text(primitive)}, or brand it with a phantom property, ` +
    `${text(primitive)} & { readonly __brand: "Name" }`
  );
}

/** Makes the generator read a brand as its primitive, keeping every other argument (the property's JSDoc). */
function completeBrands(
  generator: JsonSchemaGenerator,
  checker: TS.TypeChecker,
  ready: () => boolean,
): boolean {
  const internals = generator as unknown as GeneratorInternals;
  const typeDefinition = internals.getTypeDefinition;
  if (typeof typeDefinition !== "function") return false;
  internals.getTypeDefinition = function (type, ...rest) {
    const primitive = brandedPrimitive(checker, type);
    return typeDefinition.call(this, primitive && ready() ? primitive : type, ...rest);
  };
  return true;
}
