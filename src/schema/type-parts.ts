// Where inside a parameter's (or an output class's) type a refused type stands, written from the parameter:
// `o.items` (a field), `o.lines[].extras` (an array's element), `o.byKey[key].total` (an index signature's
// or `Record<string, V>`'s value), `o.span[1]` (a tuple's element), `o["first-name"]` (a key that is no
// identifier). A union's members and a brand's primitive stand where the union or the brand does.
import type * as TS from "typescript";
import ts from "./typescript.js";

/** A type inside another that JSON carries, where it stands, and whether it must hold a value there. */
export interface TypePart {
  readonly type: TS.Type;
  /** The path to it from the parameter (or the output class), e.g. `o.lines[].extras`. */
  readonly path: string;
  /**
   * Whether the JSON holds a value of it wherever it stands (an array's element, a required field, an
   * index signature's value), so that `undefined` or `never` there is refused (valueless-types.ts).
   */
  readonly holdsValue: boolean;
}

/** The path to the field `name` of the value at `path`: `o.items`, or `o["first-name"]`. */
function fieldPath(path: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
}

/**
 * The types inside an object type that JSON carries, each with its path from `path`: array and tuple
 * elements, index signatures' values (a `Record<string, V>`'s too, whose symbol is the lib's) and
 * property types. A built-in type's properties are its own (an `Error`'s `message`), but a mapped type's
 * (`Omit<Order, "id">`, `Partial<T>`, `Readonly<T>`, `Pick<T, K>`, whose symbol is the lib's too) are the
 * user's fields, as the checker resolves them: they are held to the same rules as the fields of `T`.
 * An optional property typed `undefined` (or `never`) says the key is never there
 * (`{ a: string; b?: never } | { a?: never; b: string }`), as its schema does: it need hold no value.
 */
export function partsOf(checker: TS.TypeChecker, type: TS.Type, path: string): TypePart[] {
  if (checker.isArrayType(type)) {
    const element = checker.getTypeArguments(type as TS.TypeReference)[0]!;
    return [{ type: element, path: `${path}[]`, holdsValue: true }];
  }
  // Every element, an optional one too: typescript-json-schema has no schema for an element typed `never`
  // (a property's it leaves out).
  if (checker.isTupleType(type))
    return checker
      .getTypeArguments(type as TS.TypeReference)
      .map((element, i) => ({ type: element, path: `${path}[${i}]`, holdsValue: true }));
  if (!(type.flags & ts.TypeFlags.Object)) return [];
  const values = checker
    .getIndexInfosOfType(type)
    .map((info) => ({ type: info.type, path: `${path}[key]`, holdsValue: true }));
  const mapped = ((type as TS.ObjectType).objectFlags & ts.ObjectFlags.Mapped) !== 0;
  if (isGlobal(type.getSymbol()) && !mapped) return values;
  const properties = propertiesOf(checker, type).map((property) => ({
    type: typeOfProperty(checker, property),
    path: fieldPath(path, property.name),
    holdsValue: !(property.flags & ts.SymbolFlags.Optional),
  }));
  return [...values, ...properties];
}

/**
 * An object type's properties that JSON carries: not its methods, nor the properties a mapped type makes
 * of them (`Partial<Service>`'s, declared by the methods).
 */
export function propertiesOf(checker: TS.TypeChecker, type: TS.Type): TS.Symbol[] {
  const method = (d: TS.Declaration) => ts.isMethodDeclaration(d) || ts.isMethodSignature(d);
  return checker
    .getPropertiesOfType(type)
    .filter(
      (p) => p.flags & ts.SymbolFlags.Property && !(p.declarations?.length && p.declarations.every(method)),
    );
}

/** A property's type; one a mapped type makes from keys alone (`Record<"a" | "b", V>`) has no declaration. */
export function typeOfProperty(checker: TS.TypeChecker, property: TS.Symbol): TS.Type {
  const declaration = property.valueDeclaration ?? property.declarations?.[0];
  return declaration
    ? checker.getTypeOfSymbolAtLocation(property, declaration)
    : checker.getTypeOfSymbol(property);
}

/** Whether a symbol comes from TypeScript's own lib files (Date, Map...), not the user's code. */
export function isGlobal(symbol: TS.Symbol | undefined): boolean {
  const file = symbol?.declarations?.[0]?.getSourceFile().fileName ?? "";
  return (
    /[\\/]typescript[\\/]lib[\\/]lib\.[^\\/]*\.d\.ts$/.test(file) || /[\\/]@types[\\/]node[\\/]/.test(file)
  );
}
