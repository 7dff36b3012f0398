import type * as TS from "typescript";
import ts from "./typescript.js";
import type { InputType } from "./generated-schemas.js";
import { SchemaSourceError } from "./schema-source-error.js";
import type { SourceClasses } from "./source-classes.js";
import { discriminatorOf } from "./class-unions.js";
import { indexKeysProblem } from "./index-keys.js";
import { brandedPrimitive, primitiveIntersectionProblem } from "./branded-primitives.js";
import { holdsNoValue, valuelessProblem } from "./valueless-types.js";

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
    /** Where to give an explicit schema instead: the end of a refusal. */
    private readonly explicitInstead = "give the method an explicit schema with @LlmTool({ parameters })",
  ) {}

  /** @throws SchemaSourceError when the type (or a part of it) cannot be expressed as JSON Schema. */
  refuseUnsupported(type: TS.Type, typeText: string): void {
    this.refuseIf(valuelessProblem(type), typeText);
    this.refuseWithin(type, typeText, new Set());
  }

  private refuseWithin(type: TS.Type, typeText: string, seen: Set<TS.Type>): void {
    if (seen.has(type)) return;
    seen.add(type);
    this.refuseIf(this.problemOf(type), typeText);
    // A brand's object part exists only in types (branded-primitives.ts): JSON carries its primitive.
    const brand = brandedPrimitive(this.checker, type);
    const parts = brand ? [brand] : type.isUnionOrIntersection() ? type.types : this.partsOf(type);
    for (const part of parts) this.refuseWithin(part, this.text(part), seen);
  }

  /** @throws SchemaSourceError saying why JSON cannot carry `typeText`, when there is a `problem`. */
  private refuseIf(problem: string | undefined, typeText: string): void {
    if (!problem) return;
    throw new SchemaSourceError(
      `${this.context} has type ${typeText}, which ${problem}. Use a type JSON can carry (string, number, ` +
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
    if (symbol?.name === "Date" && this.isGlobal(symbol)) return { kind: "date" };
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
    const properties = this.propertiesOf(type).map((p) => p.name);
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
    for (const property of this.propertiesOf(type)) {
      const field = this.inputTypeOf(this.checker.getNonNullableType(this.typeOfProperty(property)), seen);
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
    if (name && name in UNSUPPORTED_BY_NAME && this.isGlobal(type.getSymbol()!))
      return `is a ${name}: send ${UNSUPPORTED_BY_NAME[name]} instead`;
    return undefined;
  }

  /**
   * The types inside an object type that JSON carries: array elements, index signatures' values (a
   * `Record<string, V>`'s too, whose symbol is the lib's) and property types. A built-in type's
   * properties are its own (an `Error`'s `message`), but a mapped type's (`Omit<Order, "id">`,
   * `Partial<T>`, `Readonly<T>`, `Pick<T, K>`, whose symbol is the lib's too) are the user's fields, as
   * the checker resolves them: they are held to the same rules as the fields of `T`.
   *
   * @throws SchemaSourceError for a required property whose type holds no value (see {@link valuelessProblem}).
   */
  private partsOf(type: TS.Type): TS.Type[] {
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type))
      return [...this.checker.getTypeArguments(type as TS.TypeReference)];
    if (!(type.flags & ts.TypeFlags.Object)) return [];
    const values = this.checker.getIndexInfosOfType(type).map((info) => info.type);
    const mapped = ((type as TS.ObjectType).objectFlags & ts.ObjectFlags.Mapped) !== 0;
    if (this.isGlobal(type.getSymbol()) && !mapped) return values;
    const properties = this.propertiesOf(type).map((property) => {
      const propertyType = this.typeOfProperty(property);
      // An optional property typed `undefined` (or `never`) says the key is never there (`{ a: string;
      // b?: never } | { a?: never; b: string }`), as its schema does: it has none, and no extra key is let in.
      if (!(property.flags & ts.SymbolFlags.Optional))
        this.refuseIf(valuelessProblem(propertyType), this.text(propertyType));
      return propertyType;
    });
    return [...values, ...properties];
  }

  /**
   * An object type's properties that JSON carries: not its methods, nor the properties a mapped type makes
   * of them (`Partial<Service>`'s, declared by the methods).
   */
  private propertiesOf(type: TS.Type): TS.Symbol[] {
    const method = (d: TS.Declaration) => ts.isMethodDeclaration(d) || ts.isMethodSignature(d);
    return this.checker
      .getPropertiesOfType(type)
      .filter(
        (p) => p.flags & ts.SymbolFlags.Property && !(p.declarations?.length && p.declarations.every(method)),
      );
  }

  /** A property's type; one a mapped type makes from keys alone (`Record<"a" | "b", V>`) has no declaration. */
  private typeOfProperty(property: TS.Symbol): TS.Type {
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    return declaration
      ? this.checker.getTypeOfSymbolAtLocation(property, declaration)
      : this.checker.getTypeOfSymbol(property);
  }

  /** Whether a symbol comes from TypeScript's own lib files (Date, Map...), not the user's code. */
  private isGlobal(symbol: TS.Symbol | undefined): boolean {
    const file = symbol?.declarations?.[0]?.getSourceFile().fileName ?? "";
    return (
      /[\\/]typescript[\\/]lib[\\/]lib\.[^\\/]*\.d\.ts$/.test(file) || /[\\/]@types[\\/]node[\\/]/.test(file)
    );
  }

  private text(type: TS.Type): string {
    return this.checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  }
}
