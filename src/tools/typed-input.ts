import type { ClassConstructor } from "class-transformer";
import { classTransformer } from "../lazy/class-transformer.js";
import type { InputType } from "../schema/generated-schemas.js";
import { findGeneratedClass } from "../schema/schema-store.js";
import { unionMemberOf } from "./union-member.js";

/**
 * Validated JSON turned into the declared type of a tool parameter: a `Date` from date-time text, an
 * instance of a class (through class-transformer's `plainToInstance`, so `@Type` and `@Transform` apply,
 * and nested fields the generator typed are converted too), an instance of the member class of a union
 * of classes that the object matches, arrays element by element. Values the type does not cover
 * (`null`, an absent optional parameter, a string in `Cat | string`) pass through.
 */
export function toDeclaredType(value: unknown, type: InputType | undefined): unknown {
  return convert(value, type, new Map());
}

/**
 * Fields of the classes met on the way down, by name. The generator cuts a recursive class short (the
 * inner `Category` of a `Category` is `{ kind: "class", name }` without fields); its fields are the
 * outer occurrence's, so a tree is converted at every level, not only the first.
 */
export type KnownFields = Map<string, Readonly<Record<string, InputType>>>;

function convert(value: unknown, type: InputType | undefined, known: KnownFields): unknown {
  if (type === undefined || value === undefined || value === null) return value;
  switch (type.kind) {
    case "date":
      if (typeof value === "string") return dateFrom(value);
      return typeof value === "number" ? new Date(value) : value;
    case "array":
      return Array.isArray(value) ? value.map((item) => convert(item, type.items, known)) : value;
    case "object":
      return isRecord(value) ? withFields({ ...value }, value, type.fields, known) : value;
    case "record": {
      if (!isRecord(value)) return value;
      const named = new Set(type.properties);
      // (`Object.fromEntries` defines each key, so a `__proto__` key stays a key)
      const converted = Object.fromEntries(
        Object.entries(value).map(([key, v]) => [key, named.has(key) ? v : convert(v, type.values, known)]),
      );
      return type.fields ? withFields(converted, value, type.fields, known) : converted;
    }
    case "class": {
      if (!isRecord(value)) return value;
      const cls = findGeneratedClass(type.name);
      if (!cls) return value; // unreachable after the run-start check; keep the validated JSON
      if (type.fields) known.set(type.name, type.fields);
      return toClassInstance(cls, value, type.fields ?? known.get(type.name), known);
    }
    case "union": {
      if (!isRecord(value)) return value;
      const found = unionMemberOf(value, type);
      // (no single member: unreachable after the input check, see union-input.ts; keep the validated JSON)
      if (!("member" in found)) return value;
      const { name, fields } = found.member;
      return convert(value, { kind: "class", name, ...(fields ? { fields } : {}) }, known);
    }
  }
}

// The seconds field of an RFC 3339 time, when it is a leap second (`23:59:60`, with any fraction).
const LEAP_SECOND = /([T\s]\d{2}:\d{2}):60(?:\.\d+)?/i;

/**
 * A `Date` from date-time text that passed the `date-time` format. JavaScript time has no leap seconds,
 * so a leap second (`…T23:59:60Z`, valid RFC 3339) is read as the last millisecond before the next
 * second (`…T23:59:59.999Z`): still on its own day, after every earlier instant of it, before the next.
 */
function dateFrom(text: string): Date {
  return new Date(text.replace(LEAP_SECOND, "$1:59.999"));
}

/**
 * JSON made an instance of `cls` by class-transformer, then each typed field converted (dates, nested
 * classes, arrays of them), unless class-transformer already built it (`@Type`). Tool input and
 * structured output share it.
 */
export function toClassInstance(
  cls: Function,
  value: Record<string, unknown>,
  fields: Readonly<Record<string, InputType>> | undefined,
  known: KnownFields = new Map(),
): unknown {
  const instance = classTransformer.get().plainToInstance(cls as ClassConstructor<object>, value) as Record<
    string,
    unknown
  >;
  return fields ? withFields(instance, value, fields, known) : instance;
}

/** Sets each typed field of `target` from `source`, unless class-transformer already built it (`@Type`). */
function withFields(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
  fields: Readonly<Record<string, InputType>>,
  known: KnownFields,
): Record<string, unknown> {
  for (const [name, type] of Object.entries(fields)) {
    if (!Object.hasOwn(source, name) || alreadyTyped(target[name], type)) continue;
    target[name] = convert(source[name], type, known);
  }
  return target;
}

function alreadyTyped(value: unknown, type: InputType): boolean {
  // class-transformer's own `new Date(text)` gives an Invalid Date for a leap second: convert again.
  if (type.kind === "date") return value instanceof Date && !Number.isNaN(value.getTime());
  if (type.kind === "class") {
    const cls = findGeneratedClass(type.name);
    return cls !== undefined && value instanceof (cls as Function);
  }
  return false;
}

/** Whether a value is a JSON object (not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
