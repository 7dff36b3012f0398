// Types no JSON value is: `void`, `undefined` (JSON has none) and `never`. A tool parameter, a required
// property of its type, an array's element or an index signature's value (`never[]`, `Record<string,
// never>`) so typed can be given no value by the model: the schema CLI refuses it where it is met
// (type-reading.ts, type-parts.ts), naming file:line, class, method, parameter and the path to it (a
// parameter that can only be `[]` or `{}` carries nothing the method can use). `void` is refused wherever
// it stands (`string | void` too); `undefined` only as a whole type, since beside other members it is what
// makes a parameter or a property optional, and `never` cannot be a union's member.
import type * as TS from "typescript";
import ts from "./typescript.js";

/** The end of a refusal of a type no JSON value is: `void`, `undefined` (JSON has none) or `never`. */
export function holdsNoValue(name: string): string {
  return `is ${name}: no value the model sends can be one; leave it out, or type it with what it takes`;
}

/**
 * Why a parameter, a required property, an element or an index signature's value of this type could hold
 * no value the model sends: `undefined` (JSON has none) or `never`. Only the whole type is asked: `undefined`
 * beside other members (`x?: string`, `string | undefined`) is what makes a parameter optional.
 */
export function valuelessProblem(type: TS.Type): string | undefined {
  if (type.flags & ts.TypeFlags.Never) return holdsNoValue("never");
  if (type.flags & ts.TypeFlags.Undefined) return holdsNoValue("undefined");
  return undefined;
}
