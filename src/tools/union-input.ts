// The check of a union of classes (`pet: Cat | Dog`) in a schema-valid input or answer: every union
// in it, at any depth, must single out one member (see union-member.ts). One that does not is the
// caller's (the model's) error, found before anything runs — an `Invalid arguments` result for a tool
// call, a repair request for an answer — and named with the field and the candidates.
import type { InputType } from "../schema/generated-schemas.js";
import { isRecord, type KnownFields } from "./typed-input.js";
import { unionMemberOf } from "./union-member.js";

const withUnion = new WeakMap<InputType, boolean>();

/** Whether a declared type holds a union of classes anywhere (only then is there anything to check). */
export function hasUnion(type: InputType): boolean {
  let found = withUnion.get(type);
  if (found === undefined) {
    const fields = (record: Readonly<Record<string, InputType>> | undefined) =>
      Object.values(record ?? {}).some(hasUnion);
    found =
      type.kind === "union" ||
      (type.kind === "array" && hasUnion(type.items)) ||
      (type.kind === "record" && (hasUnion(type.values) || fields(type.fields))) ||
      ((type.kind === "object" || type.kind === "class") && fields(type.fields));
    withUnion.set(type, found);
  }
  return found;
}

/**
 * The check a tool with union-typed parameters runs on its schema-valid input (see `Tool.checkInput`),
 * or undefined for a tool with none.
 */
export function unionInputCheck(
  types: Readonly<Record<string, InputType>> | undefined,
): ((input: Readonly<Record<string, unknown>>) => string | undefined) | undefined {
  const checked = Object.entries(types ?? {}).filter(([, type]) => hasUnion(type));
  if (checked.length === 0) return undefined;
  return (input) => {
    for (const [name, type] of checked) {
      const problem = Object.hasOwn(input, name) ? problemIn(input[name], type, name, new Map()) : undefined;
      if (problem) return problem;
    }
    return undefined;
  };
}

/**
 * Why a schema-valid value cannot become its declared type (a union member it does not single out, at
 * any depth), naming the field; undefined when it can.
 */
export function unionProblem(value: unknown, type: InputType | undefined): string | undefined {
  return type && hasUnion(type) ? problemIn(value, type, "", new Map()) : undefined;
}

function problemIn(value: unknown, type: InputType, at: string, known: KnownFields): string | undefined {
  if (value === undefined || value === null) return undefined;
  switch (type.kind) {
    case "date":
      return undefined;
    case "array":
      if (!Array.isArray(value)) return undefined;
      for (const [i, item] of value.entries()) {
        const problem = problemIn(item, type.items, join(at, String(i)), known);
        if (problem) return problem;
      }
      return undefined;
    case "object":
      return isRecord(value) ? fieldsProblem(value, type.fields, at, known) : undefined;
    case "record": {
      if (!isRecord(value)) return undefined;
      const named = new Set(type.properties);
      for (const [key, item] of Object.entries(value)) {
        const problem = named.has(key) ? undefined : problemIn(item, type.values, join(at, key), known);
        if (problem) return problem;
      }
      return type.fields ? fieldsProblem(value, type.fields, at, known) : undefined;
    }
    case "class": {
      if (!isRecord(value)) return undefined;
      if (type.fields) known.set(type.name, type.fields);
      const fields = type.fields ?? known.get(type.name);
      return fields ? fieldsProblem(value, fields, at, known) : undefined;
    }
    case "union": {
      if (!isRecord(value)) return undefined;
      const found = unionMemberOf(value, type);
      if ("problem" in found) return `field "${at || "(input)"}" ${found.problem}`;
      const { name, fields } = found.member;
      return problemIn(value, { kind: "class", name, ...(fields ? { fields } : {}) }, at, known);
    }
  }
}

function fieldsProblem(
  value: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<string, InputType>>,
  at: string,
  known: KnownFields,
): string | undefined {
  for (const [name, type] of Object.entries(fields)) {
    const problem = Object.hasOwn(value, name)
      ? problemIn(value[name], type, join(at, name), known)
      : undefined;
    if (problem) return problem;
  }
  return undefined;
}

const join = (at: string, key: string) => (at ? `${at}.${key}` : key);
