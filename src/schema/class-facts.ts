// What the generated module says about its classes beyond schemas: how an output class's JSON becomes an
// instance (its dates and nested classes), and which fields TypeScript marks `private` or `protected`.
// Both are read from the types, so they hold whichever decorator mode (or none) the project compiles with.
import type * as TS from "typescript";
import ts from "./typescript.js";
import type { InputType } from "./generated-schemas.js";
import type { ClassImport, SourceClasses } from "./source-classes.js";
import { TypeReading } from "./type-reading.js";

/** The class a {@link ClassImport} names, as the checker knows it. */
export function classSymbolOf(
  program: TS.Program,
  checker: TS.TypeChecker,
  found: ClassImport,
): TS.Symbol | undefined {
  const file = program.getSourceFile(found.file);
  const moduleSymbol = file && checker.getSymbolAtLocation(file);
  const exported =
    moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((e) => e.name === found.exportName);
  if (!exported) return undefined;
  return exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
}

/**
 * How each structured-output class's JSON becomes an instance (a `Date` field a `Date`, nested classes
 * and arrays of them instances), for the classes that have something to convert. Classes it reaches are
 * added to `classes`, so the module imports them.
 *
 * @throws SchemaSourceError for a nested class that is not exported, and for a field of a type JSON cannot
 *   carry or the generator cannot read (as for a tool's parameters).
 */
export function outputTypesOf(
  names: Iterable<string>,
  program: TS.Program,
  classes: SourceClasses,
): Record<string, InputType> {
  const checker = program.getTypeChecker();
  const types: Record<string, InputType> = {};
  for (const name of names) {
    const found = classes.imports.get(name);
    const symbol = found && classSymbolOf(program, checker, found);
    if (!symbol) continue;
    const reading = new TypeReading(
      checker,
      classes,
      `${found.file}: output class ${name}`,
      name,
      "pass createObject a JSON Schema object instead of the class",
    );
    const declared = checker.getDeclaredTypeOfSymbol(symbol);
    // The answer's schema is generated from the same types: what a parameter may not be, a field may not.
    reading.refuseUnsupported(declared, name);
    const type = reading.inputTypeOf(declared);
    if (type?.kind === "class" && type.fields) types[name] = type;
  }
  return types;
}

/**
 * The fields TypeScript marks `private` or `protected` (constructor parameter properties included) of
 * each class the module imports, by class name; classes without any are left out. At run time such a
 * field is an ordinary property, so without this list it would be sent to the model.
 */
export function hiddenFieldsOf(program: TS.Program, classes: SourceClasses): Record<string, string[]> {
  const checker = program.getTypeChecker();
  const hidden: Record<string, string[]> = {};
  for (const [name, found] of [...classes.imports].sort(([a], [b]) => a.localeCompare(b))) {
    const symbol = classSymbolOf(program, checker, found);
    if (!symbol) continue;
    const fields = checker
      .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))
      .filter((p) => p.flags & ts.SymbolFlags.Property && isNonPublic(p))
      .map((p) => p.name)
      .filter((n) => !n.startsWith("#"))
      .sort();
    if (fields.length > 0) hidden[name] = fields;
  }
  return hidden;
}

function isNonPublic(property: TS.Symbol): boolean {
  return (property.declarations ?? []).some(
    (d) => (ts.getCombinedModifierFlags(d) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0,
  );
}
