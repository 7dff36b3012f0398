// `Record<string, V>`, `{ [K in string]: V }` and any alias of them are mapped types over string keys.
// typescript-json-schema reads an object's index signature from its declaration's syntax (the
// `IndexSignature` members of an interface or type literal), and a mapped type's declaration has none: it
// gave `{ "type": "object", "additionalProperties": false }`, a schema only `{}` satisfies. Rewriting the
// user's types in the text the generator parses cannot reach an alias or an interface field declared
// elsewhere, and patching the schemas afterwards would have to find anonymous `{}`-like nodes and compute
// V's schema on the side; so the generator's reading of an object type is completed where it happens: the
// checker gives the mapped type's string index (its V, resolved through every alias), and V is read by the
// generator's own `getTypeDefinition`, exactly as it reads an index signature's value type. A class V gets
// its `$ref`, a union its `anyOf`, a nested record the same completion: the schema is the one
// `{ [key: string]: V }` gets.
//
// Those two methods are private in typescript-json-schema 0.68, so another release may lack them or use
// them otherwise. The completion is therefore checked by what it does, once per process and only once a
// mapped type over string keys is met (generator-probe.ts): a generator over a small in-memory program must
// give `Record<string, number>` the schema `{ [key: string]: number }` gets.
// When it does not, the generator reads every type as it would without it (the completion passes its
// calls through untouched) and a mapped type over string keys is refused where it is met
// (type-reading.ts, naming class, method and parameter), as it was before the completion existed: never the
// schema only `{}` satisfies. An index signature the user writes needs no completion and is generated.
import type * as TS from "typescript";
import type { JsonSchemaGenerator } from "typescript-json-schema";
import { CheckedCompletion } from "./generator-probe.js";
import type { JsonSchema } from "./json-schema.js";
import ts from "./typescript.js";

/** The generator's methods this completion goes through (typescript-json-schema 0.68, private there). */
interface GeneratorInternals {
  getClassDefinition(type: TS.Type, definition: JsonSchema, ...rest: unknown[]): JsonSchema;
  getTypeDefinition(type: TS.Type, asRef?: boolean, unionModifier?: string): JsonSchema;
}

/**
 * The completion that reads a mapped type over string keys as the index signature it is (see above):
 * `Record<string, number>` must get the schema `{ [key: string]: number }` gets.
 */
export const mappedRecordHook = new CheckedCompletion(
  completeMappedRecords,
  `type Record<K extends keyof any, T> = { [P in K]: T };
interface Probe { r: Record<string, number>; }`,
  { type: "object", additionalProperties: { type: "number" } },
);

/** The value type of a mapped type with string keys (`Record<string, V>`, `{ [K in string]: V }`), if it is one. */
export function mappedStringIndex(checker: TS.TypeChecker, type: TS.Type): TS.Type | undefined {
  const mapped =
    type.flags & ts.TypeFlags.Object && (type as TS.ObjectType).objectFlags & ts.ObjectFlags.Mapped;
  return mapped ? checker.getIndexInfoOfType(type, ts.IndexKind.String)?.type : undefined;
}

function completeMappedRecords(
  generator: JsonSchemaGenerator,
  checker: TS.TypeChecker,
  ready: () => boolean,
): boolean {
  const internals = generator as unknown as GeneratorInternals;
  const classDefinition = internals.getClassDefinition;
  if (typeof classDefinition !== "function" || typeof internals.getTypeDefinition !== "function")
    return false;
  internals.getClassDefinition = function (type, definition, ...rest) {
    const result = classDefinition.call(this, type, definition, ...rest);
    const values = mappedStringIndex(checker, type);
    if (values && ready())
      definition.additionalProperties = this.getTypeDefinition(values, undefined, "anyOf");
    return result;
  };
  return true;
}
