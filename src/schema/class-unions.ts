// A union of classes (`Cat | Dog`) as the generated module describes it: which class each member is,
// and how JSON tells them apart — a discriminator (a field every member types with literals of its own,
// such as `kind: "cat"` and `kind: "dog"`) when the classes have one, else each member's own schema, so
// the one member the JSON validates against can be chosen at run time. (esbuild emits no decorator
// metadata, and class-transformer's discriminator needs it: the module is what knows the classes.)
import type * as TS from "typescript";
import ts from "./typescript.js";
import type { DiscriminatorValue, InputType } from "./generated-schemas.js";
import type { JsonSchema } from "./json-schema.js";

/** A field that tells a union's members apart, and each member's values of it (in member order). */
export interface Discriminator {
  readonly property: string;
  readonly tags: readonly (readonly DiscriminatorValue[])[];
}

/**
 * The first field (in the first member's order) that every member declares, required, with literal
 * types only, no two members sharing a value; undefined when there is none.
 */
export function discriminatorOf(
  checker: TS.TypeChecker,
  members: readonly TS.Type[],
): Discriminator | undefined {
  for (const property of checker.getPropertiesOfType(members[0]!)) {
    if (!(property.flags & ts.SymbolFlags.Property)) continue;
    const tags = members.map((member) => literalsOf(checker, member, property.name));
    if (tags.some((t) => t === undefined)) continue;
    const all = tags.flat();
    if (new Set(all).size === all.length)
      return { property: property.name, tags: tags as DiscriminatorValue[][] };
  }
  return undefined;
}

/** The literal values a required field of `type` can hold, or undefined when it can hold others. */
function literalsOf(checker: TS.TypeChecker, type: TS.Type, name: string): DiscriminatorValue[] | undefined {
  const property = checker.getPropertyOfType(type, name);
  const declaration = property?.valueDeclaration ?? property?.declarations?.[0];
  if (!property || !declaration || property.flags & ts.SymbolFlags.Optional) return undefined;
  const propertyType = checker.getTypeOfSymbolAtLocation(property, declaration);
  const values: DiscriminatorValue[] = [];
  for (const part of propertyType.isUnion() ? propertyType.types : [propertyType]) {
    if (part.isStringLiteral() || part.isNumberLiteral()) values.push(part.value);
    else if (part.flags & ts.TypeFlags.BooleanLiteral)
      values.push((part as { intrinsicName?: string }).intrinsicName === "true");
    else return undefined;
  }
  return values;
}

/** `type` with each member of a union without a discriminator given its own schema, at any depth. */
export function withMemberSchemas(type: InputType, schemaOf: (className: string) => JsonSchema): InputType {
  const fields = (record: Readonly<Record<string, InputType>>) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, withMemberSchemas(v, schemaOf)]));
  switch (type.kind) {
    case "date":
      return type;
    case "array":
      return { ...type, items: withMemberSchemas(type.items, schemaOf) };
    case "record":
      return {
        ...type,
        values: withMemberSchemas(type.values, schemaOf),
        ...(type.fields ? { fields: fields(type.fields) } : {}),
      };
    case "object":
      return { ...type, fields: fields(type.fields) };
    case "class":
      return type.fields ? { ...type, fields: fields(type.fields) } : type;
    case "union":
      return {
        ...type,
        members: type.members.map((member) => ({
          ...member,
          ...(member.fields ? { fields: fields(member.fields) } : {}),
          ...(type.discriminator === undefined ? { schema: schemaOf(member.name) } : {}),
        })),
      };
  }
}
