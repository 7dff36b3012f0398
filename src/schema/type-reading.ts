import type * as TS from "typescript";
import ts from "./typescript.js";
import type { InputType } from "./generated-schemas.js";
import { SchemaSourceError } from "./schema-source-error.js";
import type { SourceClasses } from "./source-classes.js";
import { discriminatorOf } from "./class-unions.js";
import { indexKeysProblem } from "./index-keys.js";
import { brandedPrimitive, primitiveIntersectionProblem } from "./branded-primitives.js";
import { holdsNoValue, valuelessProblem } from "./valueless-types.js";
import { isGlobal, partsOf, propertiesOf, typeOfProperty } from "./type-parts.js";

// What may stand beside the classes of a union that is converted: JSON's own values.
const PRIMITIVES =
  ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.EnumLike;

/** Built-in types JSON cannot carry faithfully, with what to use instead. */
const UNSUPPORTED_BY_NAME: Readonly<Record<string, string>> = {
  Map: "a plain object ({ [key: string]: V })",
  WeakMap: "a plain object ({ [key: string]: V })",
  Set: "an array",
  WeakSet: "an array",
  Promise: "the value itself",
  RegExp: "a string",
};

/**
 * What the schema generator needs to know about a parameter's TypeScript type beyond its schema: whether
 * JSON can carry it at all (else a {@link SchemaSourceError} that names the parameter and what to do), and
 * how JSON becomes it at run time (an `InputType` for dates and classes, at any depth).
 */
export class TypeReading {
  constructor(
    private readonly checker: TS.TypeChecker,
    private readonly classes: SourceClasses,
    /** `file:line: Class.method parameter "name"`, the start of every message. */
    private readonly context: string,
    /** The parameter's name (or the output class's): where the path to a refused part starts. */
    private readonly root: string,
    /** Where to give an explicit schema instead: the end of a refusal. */
    private readonly explicitInstead = "give the method an explicit schema with @LlmTool({ parameters })",
  ) {}

  /**
   * @throws SchemaSourceError when the type (or a part of it) cannot be expressed as JSON Schema, naming
   *   the path to the part from the parameter (`o.lines[].extras`, type-parts.ts) when it is not the whole type.
   */
  refuseUnsupported(type: TS.Type, typeText: string): void {
    this.refuseIf(valuelessProblem(type), typeText, this.root);
    this.refuseWithin(type, typeText, this.root, new Set());
  }

  /** Walks `type` and the types JSON carries inside it; a type met again is not walked again (recursion). */
  private refuseWithin(type: TS.Type, typeText: string, path: string, seen: Set<TS.Type>): void {
    if (seen.has(type)) return;
    seen.add(type);
    this.refuseIf(this.problemOf(type), typeText, path);
    // A brand's object part exists only in types (branded-primitives.ts): JSON carries its primitive.
    const brand = brandedPrimitive(this.checker, type);
    const members = brand ? [brand] : type.isUnionOrIntersection() ? type.types : undefined;
    const parts =
      members?.map((t) => ({ type: t, path, holdsValue: false })) ?? partsOf(this.checker, type, path);
    for (const part of parts) {
      const text = this.text(part.type);
      if (part.holdsValue) this.refuseIf(valuelessProblem(part.type), text, part.path);
      this.refuseWithin(part.type, text, part.path, seen);
    }
  }

  /** @throws SchemaSourceError saying why JSON cannot carry `typeText` at `path`, when there is a `problem`. */
  private refuseIf(problem: string | undefined, typeText: string, path: string): void {
    if (!problem) return;
    const at = path === this.root ? "" : ` (at ${path})`;
    throw new SchemaSourceError(
      `${this.context}${at} has type ${typeText}, which ${problem}. Use a type JSON can carry (string, number, ` +
        `boolean, arrays, plain objects, classes, Date) or ${this.explicitInstead}.`,
    );
  }

  /** How JSON becomes `type` at run time, when it must; undefined when JSON already is the value. */
  inputTypeOf(type: TS.Type, seen = new Set<TS.Type>()): InputType | undefined {
    if (type.isUnion()) {
      const parts = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
      if (parts.length === 1) return this.inputTypeOf(parts[0]!, seen);
      return this.unionOf(type, parts, seen);
    }
    const symbol = type.getSymbol();
    if (symbol?.name === "Date" && isGlobal(symbol)) return { kind: "date" };
    if (this.checker.isArrayType(type)) {
      const items = this.inputTypeOf(this.checker.getTypeArguments(type as TS.TypeReference)[0]!, seen);
      return items ? { kind: "array", items } : undefined;
    }
    if (this.checker.isTupleType(type)) return this.tupleOf(type as TS.TypeReference, seen);
    if (!symbol || !(type.flags & ts.TypeFlags.Object)) return undefined;
    if (symbol.flags & ts.SymbolFlags.Class) {
      const classImport = this.classes.importOf(symbol);
      if (!classImport) {
        throw new SchemaSourceError(
          `${this.context} has the class type ${symbol.name}, which is not exported: export it, so the ` +
            "generated module can import it and the tool receives an instance",
        );
      }
      const name = this.classes.add(symbol.name, classImport, this.context);
      if (seen.has(type)) return { kind: "class", name };
      const inner = new Set([...seen, type]);
      if (this.indexValuesOf(type, inner)) {
        throw new SchemaSourceError(
          `${this.context} has the class type ${symbol.name}, whose index signature's values (${this.text(this.indexOf(type)!.type)}) ` +
            "would reach the method as JSON (a class's extra keys are not converted): declare an interface with " +
            "the index signature instead, or give the class a field typed Record<string, V> for them",
        );
      }
      const fields = this.fieldsOf(type, inner);
      return fields ? { kind: "class", name, fields } : { kind: "class", name };
    }
    if (seen.has(type)) return undefined;
    const inner = new Set([...seen, type]);
    const fields = this.fieldsOf(type, inner);
    // An index signature (`{ [key: string]: V }`, `Record<string, V>`, number keys): each value converted as
    // V is, except the named properties', each converted as its own type.
    const values = this.indexValuesOf(type, inner);
    if (!values) return fields ? { kind: "object", fields } : undefined;
    const properties = propertiesOf(this.checker, type).map((p) => p.name);
    return {
      kind: "record",
      values,
      ...(fields ? { fields } : {}),
      ...(properties.length > 0 ? { properties } : {}),
    };
  }

  /** The one index signature of an object type that JSON keys reach (index-keys.ts refuses the others). */
  private indexOf(type: TS.Type): TS.IndexInfo | undefined {
    return (
      this.checker.getIndexInfoOfType(type, ts.IndexKind.String) ??
      this.checker.getIndexInfoOfType(type, ts.IndexKind.Number)
    );
  }

  /** How an index signature's values are converted, when they are. */
  private indexValuesOf(type: TS.Type, seen: Set<TS.Type>): InputType | undefined {
    const index = this.indexOf(type);
    return index && this.inputTypeOf(index.type, seen);
  }

  /**
   * A tuple's JSON reaches the method as it is: the module has no tuple conversion, so a `Date` or a class
   * in it would arrive as a string or a plain object while its type says otherwise.
   *
   * @throws SchemaSourceError for a tuple with such an element.
   */
  private tupleOf(tuple: TS.TypeReference, seen: Set<TS.Type>): undefined {
    const converted = this.checker
      .getTypeArguments(tuple)
      .find((t) => this.inputTypeOf(t, seen) !== undefined);
    if (converted === undefined) return undefined;
    throw new SchemaSourceError(
      `${this.context} has the tuple type ${this.text(tuple)}, whose element ${this.text(converted)} would reach ` +
        "the method as JSON (tuple elements are not converted): use an object with a named field for it, or an array",
    );
  }

  /**
   * A union of classes (beside `undefined`, `null` and primitives): JSON that is an object becomes the
   * member class it matches (see class-unions.ts). A union that mixes classes with other object types
   * (`Date`, arrays, interfaces) has no member to pick by: its JSON reaches the method as it is, and the
   * CLI says so.
   */
  private unionOf(union: TS.Type, parts: readonly TS.Type[], seen: Set<TS.Type>): InputType | undefined {
    const classes = parts.filter((part) => (part.getSymbol()?.flags ?? 0) & ts.SymbolFlags.Class);
    if (classes.length === 0) return undefined;
    if (parts.some((part) => !classes.includes(part) && !(part.flags & PRIMITIVES))) {
      const warning =
        `${this.context} has the union type ${this.text(union)}: its JSON reaches the method as it is (a plain ` +
        `object, not an instance of ${classes.map((t) => t.getSymbol()!.name).join(" or ")}): a union is ` +
        "converted when its members are classes (and primitives). Build the instance in the method.";
      if (!this.classes.warnings.includes(warning)) this.classes.warnings.push(warning);
      return undefined;
    }
    const discriminator = discriminatorOf(this.checker, classes);
    if (!discriminator) this.refuseTwins(classes);
    const members = classes.map((part, i) => {
      const type = this.inputTypeOf(part, seen) as Extract<InputType, { kind: "class" }>;
      // Titles are the names the schemas' definitions have: the declared ones, never qualified.
      this.classes.unionMembers.add(part.getSymbol()!.name);
      if (!discriminator) this.classes.validatedMembers.add(type.name);
      return {
        name: type.name,
        ...(type.fields ? { fields: type.fields } : {}),
        ...(discriminator ? { tags: discriminator.tags[i]! } : {}),
      };
    });
    return { kind: "union", members, ...(discriminator ? { discriminator: discriminator.property } : {}) };
  }

  /**
   * A union without a discriminator is told apart by its members' schemas, which the model is offered
   * titled with the classes' names: two members with one name (`a/pet.Pet | b/pet.Pet`) would read alike.
   *
   * @throws SchemaSourceError for such a union, saying what to add.
   */
  private refuseTwins(classes: readonly TS.Type[]): void {
    const names = classes.map((part) => part.getSymbol()!.name);
    const twin = names.find((name, i) => names.indexOf(name) !== i);
    if (twin === undefined) return;
    throw new SchemaSourceError(
      `${this.context} is a union of classes without a discriminator, and two of its members are named ${twin}: ` +
        'give the members a field with a literal type of their own (`kind: "a"`, `kind: "b"`) so the union is ' +
        "told apart by it (the model would read two members titled alike)",
    );
  }

  private fieldsOf(type: TS.Type, seen: Set<TS.Type>): Record<string, InputType> | undefined {
    const fields: Record<string, InputType> = {};
    for (const property of propertiesOf(this.checker, type)) {
      const field = this.inputTypeOf(
        this.checker.getNonNullableType(typeOfProperty(this.checker, property)),
        seen,
      );
      if (field) fields[property.name] = field;
    }
    return Object.keys(fields).length > 0 ? fields : undefined;
  }

  /** Why JSON cannot carry a type, or undefined. */
  private problemOf(type: TS.Type): string | undefined {
    if (type.flags & ts.TypeFlags.Any && (type as { intrinsicName?: string }).intrinsicName === "error")
      return "does not resolve (a missing import or a typo?)";
    if (type.flags & ts.TypeFlags.TypeParameter) return "is a generic type parameter: its schema is unknown";
    if (type.flags & ts.TypeFlags.Void) return holdsNoValue("void");
    if (type.flags & ts.TypeFlags.BigIntLike) return "is a bigint: JSON numbers cannot carry it exactly";
    if (type.flags & ts.TypeFlags.ESSymbolLike) return "is a symbol";
    if (type.flags & ts.TypeFlags.Object && type.getCallSignatures().length > 0) return "is a function";
    const intersection = primitiveIntersectionProblem(this.checker, type, (t) => this.text(t));
    if (intersection) return intersection;
    const keys = indexKeysProblem(this.checker, type, (t) => this.text(t));
    if (keys) return keys;
    const name = type.getSymbol()?.name;
    if (name && name in UNSUPPORTED_BY_NAME && isGlobal(type.getSymbol()!))
      return `is a ${name}: send ${UNSUPPORTED_BY_NAME[name]} instead`;
    return undefined;
  }

  private text(type: TS.Type): string {
    return this.checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  }
}
