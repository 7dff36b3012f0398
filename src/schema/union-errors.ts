// Validation messages for a union of classes. ajv reports a value that matches no member of an `anyOf`
// as every member's errors in a row and then "must match a schema in anyOf": for `pet: Cat | Dog` sent
// as a Dog with a wrong field, the model reads Cat's complaints too and cannot tell which is which. The
// generator titles the members of a union of classes with their class names (see inline-refs.ts), so
// here their errors are told apart by member, and narrowed to the member the value's discriminator names
// when it names one.
import type { ErrorObject } from "ajv";
import type { JsonSchema } from "./json-schema.js";

const MAX_PER_MEMBER = 4;

/** Problem lines to describe, and how many more there were. */
interface Described {
  readonly lines: string[];
  readonly more: number;
}

/**
 * One line per problem, the errors of a titled union's members grouped under its one line; at most `max`
 * lines, then `and N more problems`. A union's members' errors are those at or below its field: the same
 * union in every item of an array has one `schemaPath`, and each item's line names that item's problems
 * only. Linear in the errors (times the depth of their fields): a call with thousands of wrong items in an
 * array of unions is described as fast as one with thousands of wrong numbers.
 */
export function describeGrouped(
  root: JsonSchema,
  errors: readonly ErrorObject[],
  describe: (error: ErrorObject) => string,
  max: number,
): string[] {
  const { lines, more } = describeLines(root, errors, describe, max);
  return more > 0 ? [...lines, `and ${more} more problem${more === 1 ? "" : "s"}`] : lines;
}

function describeLines(
  root: JsonSchema,
  errors: readonly ErrorObject[],
  describe: (error: ErrorObject) => string,
  max: number,
): Described {
  const membersOf = new Map<string, JsonSchema[] | undefined>();
  const titled = (error: ErrorObject): JsonSchema[] | undefined => {
    if (error.keyword !== "anyOf") return undefined;
    if (!membersOf.has(error.schemaPath))
      membersOf.set(error.schemaPath, titledMembers(root, error.schemaPath));
    return membersOf.get(error.schemaPath);
  };
  const unionsAt = new Map<string, ErrorObject[]>();
  for (const error of errors) if (titled(error)) listAt(unionsAt, error.instancePath).push(error);
  // The outermost only: a union inside a member is described with that member.
  const outermost = new Set<ErrorObject>();
  for (const list of unionsAt.values())
    for (const union of list) if (!insideAnother(union, unionsAt)) outermost.add(union);
  const below = outermost.size > 0 ? atOrBelow(errors) : new Map<string, ErrorObject[]>();
  const branchesOf = new Map<ErrorObject, ErrorObject[][]>();
  const consumed = new Set<ErrorObject>();
  for (const union of outermost) {
    const candidates = below.get(union.instancePath) ?? [];
    const branches = titled(union)!.map((_, i) =>
      candidates.filter((e) => e.schemaPath.startsWith(`${union.schemaPath}/${i}/`)),
    );
    for (const error of branches.flat()) consumed.add(error);
    branchesOf.set(union, branches);
  }
  const lines: string[] = [];
  let more = 0;
  for (const error of errors) {
    const branches = branchesOf.get(error);
    if (!branches && consumed.has(error)) continue;
    if (lines.length >= max) more++;
    else if (!branches) lines.push(describe(error));
    else {
      const described = branches.map((branch) => describeLines(root, branch, describe, MAX_PER_MEMBER));
      lines.push(describeUnion(error, titled(error)!, branches, described));
    }
  }
  return { lines, more };
}

/** The list of `map` at `key`, made empty when there is none. */
function listAt(map: Map<string, ErrorObject[]>, key: string): ErrorObject[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

/** The errors by each field they lie at or below (`""`, the input, holds them all). */
function atOrBelow(errors: readonly ErrorObject[]): Map<string, ErrorObject[]> {
  const below = new Map<string, ErrorObject[]>();
  for (const error of errors)
    for (const path of fieldAndAbove(error.instancePath)) listAt(below, path).push(error);
  return below;
}

/** Whether a titled union error at this field or one above it has `union` inside one of its members. */
function insideAnother(union: ErrorObject, unionsAt: ReadonlyMap<string, readonly ErrorObject[]>): boolean {
  for (const path of fieldAndAbove(union.instancePath))
    if (unionsAt.get(path)?.some((outer) => union.schemaPath.startsWith(`${outer.schemaPath}/`))) return true;
  return false;
}

/** A field's path (`/pets/0`), then each above it up to the input's (`/pets`, `""`). */
function* fieldAndAbove(path: string): Generator<string> {
  for (; path !== ""; path = path.slice(0, path.lastIndexOf("/"))) yield path;
  yield "";
}

function describeUnion(
  union: ErrorObject,
  members: readonly JsonSchema[],
  branches: readonly (readonly ErrorObject[])[],
  described: readonly Described[],
): string {
  const field = `field "${fieldOf(union.instancePath) || "(input)"}"`;
  const names = members.map(nameOf);
  // The members the value may have meant: not of another JSON type (`null` in `Cat | Dog | null`), and
  // not contradicting a discriminator (a field each member gives a literal of its own).
  const named = members.flatMap((member, i) =>
    branches[i]!.some((e) => contradicts(e, member, union.instancePath)) ? [] : [i],
  );
  const shown = (i: number) => {
    const { lines, more } = described[i]!;
    return (more > 0 ? [...lines, "…"] : lines).join(", ");
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

function fieldOf(instancePath: string): string {
  return instancePath ? instancePath.slice(1).split("/").map(unescape).join(".") : "";
}

/** A JSON pointer segment (as ajv writes it) as the key it names. */
function unescape(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~");
}
