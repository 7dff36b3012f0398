// An object's keys as the generated schema can hold them. typescript-json-schema 0.68 reads one index
// signature keyed by `string` (`additionalProperties`) or one keyed by `number` (`patternProperties`
// `^[0-9]+$`); every other way of typing an object's keys came out as a schema that refuses keys the type
// allows, most often every key (`{ "type": "object", "additionalProperties": false }`, only `{}`):
// template literal keys (`Record<`x_${string}`, V>`), `Uppercase<string>` or symbol keys, a string and a
// number index together (`Record<string | number, V>`, `PropertyKey` keys: only digit keys were accepted),
// an index signature inside an intersection (dropped: only the named properties were accepted), and a
// mapped type over string keys when the generator cannot be completed to read it (mapped-records.ts).
// Each is refused where it is met, saying what to write instead: the model is never offered a tool it can
// call only with `{}`. docs/schemas.md says why a template literal key is refused rather than made a pattern.
import type * as TS from "typescript";
import { mappedRecordHook, mappedStringIndex } from "./mapped-records.js";
import ts, { COMPILER_INSTALL } from "./typescript.js";

/**
 * Why the generated schema could not hold `type`'s keys as TypeScript types them, or undefined when it
 * can (`text` prints a type for the message).
 */
export function indexKeysProblem(
  checker: TS.TypeChecker,
  type: TS.Type,
  text: (type: TS.Type) => string,
): string | undefined {
  if (!(type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection))) return undefined;
  const infos = checker.getIndexInfosOfType(type);
  if (infos.length === 0) return undefined;
  const values = text(infos[0]!.type);
  const odd = infos.find((info) => !(info.keyType.flags & (ts.TypeFlags.String | ts.TypeFlags.Number)));
  if (odd) {
    return (
      `has keys of type ${text(odd.keyType)}: the generated schema cannot express them (it would refuse ` +
      `every key); type the keys as string, { [key: string]: ${values} }, and check them in the method`
    );
  }
  if (infos.length > 1) {
    return (
      "has both a string and a number index signature (as Record<string | number, V> has): the generated " +
      "schema would keep only the digit keys; every key JSON sends is a string, so type the keys as string, " +
      `{ [key: string]: ${values} }`
    );
  }
  if (type.isIntersection() && type.types.some((part) => ownIndex(checker, part))) {
    return (
      "is an intersection with an index signature: the generated schema would drop the index signature (and " +
      "refuse every key but the named properties); declare one interface with the named properties and the " +
      `index signature, [key: string]: ${values}`
    );
  }
  const recordValues = mappedStringIndex(checker, type);
  if (recordValues && !mappedRecordHook.works) {
    return (
      "is a mapped type over string keys, whose schema the installed typescript-json-schema does not generate " +
      `(it would accept only {}): write it as an index signature, { [key: string]: ${text(recordValues)} }, ` +
      `or ${COMPILER_INSTALL}`
    );
  }
  return undefined;
}

/** Whether a member of an intersection is an object type with an index signature of its own (not an array's, not a primitive's). */
function ownIndex(checker: TS.TypeChecker, part: TS.Type): boolean {
  return (
    (part.flags & ts.TypeFlags.Object) !== 0 &&
    !checker.isArrayType(part) &&
    !checker.isTupleType(part) &&
    checker.getIndexInfosOfType(part).length > 0
  );
}
