// Validation messages for a union of classes. ajv reports a value that matches no member of an `anyOf`
// as every member's errors in a row and then "must match a schema in anyOf": for `pet: Cat | Dog` sent
// as a Dog with a wrong field, the model reads Cat's complaints too and cannot tell which is which. The
// generator titles the members of a union of classes with their class names (see inline-refs.ts), so
// here their errors are told apart by member, and narrowed to the member the value's discriminator names
// when it names one.
import type { ErrorObject } from "ajv";
import type { JsonSchema } from "./json-schema.js";

const MAX_PER_MEMBER = 4;

/** One line per problem, the errors of a titled union's members grouped under its one line. */
export function describeGrouped(
  root: JsonSchema,
  errors: readonly ErrorObject[],
  describe: (error: ErrorObject) => string,
): string[] {
  const unions = errors.filter(
    (error) =>
      error.keyword === "anyOf" &&
      titledMembers(root, error.schemaPath) !== undefined &&
      // the outermost only: a union inside a member is described with that member
      !errors.some(
        (outer) =>
          outer.keyword === "anyOf" &&
          inside(error, outer) &&
          titledMembers(root, outer.schemaPath) !== undefined,
      ),
  );
  const grouped = new Map<ErrorObject, string>();
  const consumed = new Set<ErrorObject>();
  for (const union of unions) {
    const members = titledMembers(root, union.schemaPath)!;
    const branches = members.map((_, i) =>
      errors.filter((e) => e.schemaPath.startsWith(`${union.schemaPath}/${i}/`)),
    );
    for (const error of branches.flat()) consumed.add(error);
    const lines = branches.map((branch) => describeGrouped(root, branch, describe));
    grouped.set(union, describeUnion(union, members, branches, lines));
  }
  return errors.flatMap((error) => grouped.get(error) ?? (consumed.has(error) ? [] : [describe(error)]));
}

function describeUnion(
  union: ErrorObject,
  members: readonly JsonSchema[],
  branches: readonly (readonly ErrorObject[])[],
  lines: readonly string[][],
): string {
  const field = `field "${fieldOf(union.instancePath) || "(input)"}"`;
  const names = members.map(nameOf);
  // The members the value may have meant: not of another JSON type (`null` in `Cat | Dog | null`), and
  // not contradicting a discriminator (a field each member gives a literal of its own).
  const named = members.flatMap((member, i) =>
    branches[i]!.some((e) => contradicts(e, member, union.instancePath)) ? [] : [i],
  );
  const shown = (i: number) => {
    const problems = lines[i]!;
    const cut = problems.length > MAX_PER_MEMBER ? [...problems.slice(0, MAX_PER_MEMBER), "…"] : problems;
    return cut.join(", ");
  };
  if (named.length === 1) return `${field} is not a valid ${names[named[0]!]}: ${shown(named[0]!)}`;
  if (named.length === 0) {
    const wrongType = (i: number) =>
      branches[i]!.some((e) => e.keyword === "type" && e.instancePath === union.instancePath);
    const tag = members.every((_, i) => wrongType(i)) ? undefined : tagOf(members);
    return tag
      ? `${field} is none of ${names.join(", ")}: its "${tag.property}" must be ${tag.values.join(" or ")}`
      : `${field} is none of ${names.join(", ")}`;
  }
  return `${field} is none of ${names.join(", ")} (${named.map((i) => `as ${names[i]}: ${shown(i)}`).join("; ")})`;
}

/**
 * Whether an error says the value is not this member at all: of another JSON type, or with another value
 * of the member's discriminator (a `const`/`enum` of a direct field).
 */
function contradicts(error: ErrorObject, member: JsonSchema, at: string): boolean {
  if (error.keyword === "type" && error.instancePath === at) return true;
  if (error.keyword !== "const" && error.keyword !== "enum") return false;
  const property = /^\/([^/]+)$/.exec(error.instancePath.slice(at.length))?.[1];
  if (property === undefined) return false;
  const schema = (member.properties as Record<string, JsonSchema> | undefined)?.[unescape(property)];
  return schema !== undefined && ("const" in schema || "enum" in schema);
}

/** A member as messages name it: its class, or the JSON type it stands for (`null`, `string`). */
function nameOf(member: JsonSchema): string {
  return typeof member.title === "string" ? member.title : String(member.type ?? "another value");
}

/** The field every titled member gives literal values, with the values (`"cat" (Cat)`), if there is one. */
function tagOf(members: readonly JsonSchema[]): { property: string; values: string[] } | undefined {
  const titled = members.filter((m) => typeof m.title === "string");
  const first = (titled[0]?.properties ?? {}) as Record<string, JsonSchema>;
  for (const property of Object.keys(first)) {
    const values = titled.map((member) => {
      const schema = (member.properties as Record<string, JsonSchema> | undefined)?.[property] ?? {};
      const literals = "const" in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : [];
      return literals.map((v) => `${JSON.stringify(v)} (${String(member.title)})`);
    });
    if (values.every((v) => v.length > 0)) return { property, values: values.flat() };
  }
  return undefined;
}

/** The members of the `anyOf` at `schemaPath` when it is a union of classes (titled members among them). */
function titledMembers(root: JsonSchema, schemaPath: string): JsonSchema[] | undefined {
  let node: unknown = root;
  for (const segment of schemaPath.replace(/^#\/?/, "").split("/")) {
    if (segment === "" || typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[unescape(segment)];
  }
  const members = node as JsonSchema[] | undefined;
  if (!Array.isArray(members) || members.length === 0) return undefined;
  const objects = members.every((m) => typeof m === "object" && m !== null);
  return objects && members.some((m) => typeof m.title === "string") ? members : undefined;
}

/** Whether `error` lies inside a member of the union error `outer`. */
function inside(error: ErrorObject, outer: ErrorObject): boolean {
  return error.schemaPath.startsWith(`${outer.schemaPath}/`);
}

function fieldOf(instancePath: string): string {
  return instancePath ? instancePath.slice(1).split("/").map(unescape).join(".") : "";
}

/** A JSON pointer segment (as ajv writes it) as the key it names. */
function unescape(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~");
}
