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
import type * as TS from "typescript";
import type { JsonSchemaGenerator } from "typescript-json-schema";
import type { JsonSchema } from "./json-schema.js";
import { SchemaSourceError } from "./schema-source-error.js";
import ts, { COMPILER_INSTALL } from "./typescript.js";

/** The generator's methods this completion goes through (typescript-json-schema 0.68, private there). */
interface GeneratorInternals {
  getClassDefinition(type: TS.Type, definition: JsonSchema): JsonSchema;
  getTypeDefinition(type: TS.Type, asRef?: boolean, unionModifier?: string): JsonSchema;
}

/**
 * Makes `generator` read a mapped type over string keys as the index signature it is (see above).
 *
 * @throws SchemaSourceError when the installed typescript-json-schema lacks the methods 0.68 has.
 */
export function readMappedRecords(generator: JsonSchemaGenerator, checker: TS.TypeChecker): void {
  const internals = generator as unknown as GeneratorInternals;
  const classDefinition = internals.getClassDefinition;
  if (typeof classDefinition !== "function" || typeof internals.getTypeDefinition !== "function") {
    throw new SchemaSourceError(
      `the installed typescript-json-schema is not the version the schema CLI reads types with: ${COMPILER_INSTALL}`,
    );
  }
  internals.getClassDefinition = function (type, definition) {
    const result = classDefinition.call(this, type, definition);
    const values = mappedStringIndex(checker, type);
    if (values) definition.additionalProperties = this.getTypeDefinition(values, undefined, "anyOf");
    return result;
  };
}

/** The value type of a mapped type with string keys (`Record<string, V>`, `{ [K in string]: V }`), if it is one. */
function mappedStringIndex(checker: TS.TypeChecker, type: TS.Type): TS.Type | undefined {
  const mapped =
    type.flags & ts.TypeFlags.Object && (type as TS.ObjectType).objectFlags & ts.ObjectFlags.Mapped;
  return mapped ? checker.getIndexInfoOfType(type, ts.IndexKind.String)?.type : undefined;
}
