// Two exported classes of one project may share a name: two bounded contexts' `Customer`. The generated
// module keys its classes by name, and at run time that key is the class's name everywhere (tool schemas,
// handles, snapshots, what `resolveProvider` receives), so each class whose name another exported class of
// the project also has gets a qualified key: `<prefix>.<Name>` (`crm.Customer`) for a `@ToolProvider` with
// a literal prefix, else `<path>.<Name>` (`src/crm/address.Address`: its file from the project's folder,
// without the extension). The key depends on the project's sources only, so it is the same in every process
// that registers the module. A class whose name is its own keeps it: a module without such classes does
// not change.
import path from "node:path";
import type * as TS from "typescript";
import ts from "./typescript.js";
import { findDecorator } from "./decorator-calls.js";

/** The module keys of the project's classes that share a name, by name and file. */
export class SharedClassNames {
  private constructor(
    private readonly keys: ReadonlyMap<string, ReadonlyMap<string, string>>,
    /** Each qualified key's class. */
    private readonly classes: ReadonlyMap<string, TS.Symbol>,
  ) {}

  /** Reads the exported classes of `files` (the project's own), qualifying the names two of them share. */
  static of(files: readonly TS.SourceFile[], checker: TS.TypeChecker, root: string): SharedClassNames {
    const byName = new Map<string, Map<string, string>>(); // name → file → qualified key
    const classes = new Map<string, TS.Symbol>();
    for (const file of files) {
      const moduleSymbol = checker.getSymbolAtLocation(file);
      for (const exported of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
        const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const declaration = target.valueDeclaration;
        if (!(target.flags & ts.SymbolFlags.Class) || !declaration || !ts.isClassLike(declaration)) continue;
        const where = path.resolve(declaration.getSourceFile().fileName);
        const qualifier = literalPrefixOf(declaration) ?? withoutExtension(path.relative(root, where));
        const files = byName.get(target.name) ?? new Map<string, string>();
        files.set(where, `${qualifier}.${target.name}`);
        byName.set(target.name, files);
        classes.set(`${qualifier}.${target.name}`, target);
      }
    }
    const shared = new Map([...byName].filter(([, files]) => files.size > 1));
    const keys = new Set([...shared.values()].flatMap((files) => [...files.values()]));
    return new SharedClassNames(shared, new Map([...classes].filter(([key]) => keys.has(key))));
  }

  /** The module key of the class `name` declared in `file`: its name, or its qualified name when shared. */
  keyOf(name: string, file: string): string {
    return this.keys.get(name)?.get(path.resolve(file)) ?? name;
  }

  /** The keys of the classes that share `name` (none when it is not shared), sorted. */
  keysOf(name: string): string[] {
    return [...(this.keys.get(name)?.values() ?? [])].sort();
  }

  /** The class a qualified key (`crm.Customer`, `crm/customer.Address`) names, if it is one. */
  classOf(key: string): TS.Symbol | undefined {
    return this.classes.get(key);
  }
}

/** The `prefix` of a `@ToolProvider({ prefix: "crm" })` decorator, when it is a literal. */
function literalPrefixOf(declaration: TS.ClassLikeDeclaration): string | undefined {
  const options = findDecorator(declaration, "ToolProvider")?.arguments[0];
  if (!options || !ts.isObjectLiteralExpression(options)) return undefined;
  for (const property of options.properties) {
    if (
      ts.isPropertyAssignment(property) &&
      property.name.getText() === "prefix" &&
      ts.isStringLiteralLike(property.initializer) &&
      property.initializer.text.trim() !== ""
    )
      return property.initializer.text;
  }
  return undefined;
}

function withoutExtension(file: string): string {
  return file
    .split(path.sep)
    .join("/")
    .replace(/\.(d\.)?(m|c)?tsx?$/, "");
}
