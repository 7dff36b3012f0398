// Which class of a union of classes (`pet: Cat | Dog`) a JSON object becomes: the member the union's
// discriminator names (`"kind": "dog"`), else the one member whose own schema the object validates
// against (src/schema/class-unions.ts says what the generated module records for it).
import type { DiscriminatorValue, InputType, UnionMember } from "../schema/generated-schemas.js";
import { validateAgainst } from "../schema/validate.js";

/** A union of classes, as the generated module describes it. */
export type UnionType = Extract<InputType, { kind: "union" }>;

/**
 * The member each JSON object was found to be, with the union it was found in. A union is resolved by the
 * check of a call's input (or of an answer), and the conversion that follows asks again about the very
 * same objects: it reads the check's answer, so a union told apart by its members' schemas is validated
 * once per call, not twice. Only what JSON can hold decides the member, and the loop does not change a
 * checked input, so the answer stays true for the object.
 */
const resolved = new WeakMap<object, { readonly union: UnionType; readonly member: UnionMember }>();

/**
 * The member a JSON object is, or why it is none of them (or several), naming the candidates; found once
 * per object and union.
 */
export function unionMemberOf(value: Readonly<Record<string, unknown>>, union: UnionType): MemberOrProblem {
  const known = resolved.get(value);
  if (known?.union === union) return { member: known.member };
  const found = findMember(value, union);
  if ("member" in found) resolved.set(value, { union, member: found.member });
  return found;
}

type MemberOrProblem = { readonly member: UnionMember } | { readonly problem: string };

function findMember(value: Readonly<Record<string, unknown>>, union: UnionType): MemberOrProblem {
  const { discriminator, members } = union;
  const matching =
    discriminator !== undefined
      ? members.filter((m) => m.tags?.includes(value[discriminator] as DiscriminatorValue))
      : members.filter((m) => m.schema !== undefined && validateAgainst(m.schema, value).ok);
  if (matching.length === 1) return { member: matching[0]! };
  const shown = shownNames(members);
  const names = members.map((m) => shown.get(m)!);
  if (matching.length > 1)
    return {
      problem: `could be ${either(matching.map((m) => `a ${shown.get(m)!}`))} (it is valid as each): send a field only one of them has`,
    };
  if (discriminator === undefined) return { problem: `is none of ${names.join(", ")}` };
  const tags = members.map(
    (m) => `${shown.get(m)!} ${(m.tags ?? []).map((t) => JSON.stringify(t)).join(" or ")}`,
  );
  return {
    problem: `is none of ${names.join(", ")}: its "${discriminator}" says which (${tags.join(", ")})`,
  };
}

/** "a Cat", "a Cat or a Dog", "a Cat, a Dog or a Fish". */
function either(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/**
 * Each member's name as the model reads it: the class's declared name (`Cat`), as the schema it is offered
 * titles it, not its key in the module (`pets/cat.Cat`, qualified when another class of the project has the
 * name); the key only when two members of the union share a declared name.
 */
function shownNames(members: readonly UnionMember[]): Map<UnionMember, string> {
  const declared = members.map((m) => m.name.slice(m.name.lastIndexOf(".") + 1));
  return new Map(
    members.map((m, i) => [
      m,
      declared.indexOf(declared[i]!) === declared.lastIndexOf(declared[i]!) ? declared[i]! : m.name,
    ]),
  );
}
