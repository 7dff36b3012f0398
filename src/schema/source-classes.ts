import path from "node:path";
import type * as TS from "typescript";
import ts from "./typescript.js";
import { SchemaSourceError } from "./schema-source-error.js";
import type { SharedClassNames } from "./shared-class-names.js";

/** Where a class can be imported from: its file and the name it is exported under. */
export interface ClassImport {
  readonly file: string;
  readonly exportName: string;
}

/**
 * The classes a generated module imports, by their key (the source name, qualified when two exported
 * classes of the project share it: see {@link SharedClassNames}): tool classes (so lookups work by
 * constructor, whatever a minifier renames), output classes, and the classes tool parameters are built from.
 */
export class SourceClasses {
  readonly imports = new Map<string, ClassImport>();
  /** What the generation could express but not convert (a union of classes and dates), for the CLI to print. */
  readonly warnings: string[] = [];
  /** The classes of the unions of classes that are converted (their schemas are titled with their names). */
  readonly unionMembers = new Set<string>();
  /** Those of unions without a discriminator: the module holds their own schemas. */
  readonly validatedMembers = new Set<string>();

  constructor(
    private readonly checker: TS.TypeChecker,
    /** The project's classes that share a name (none: every class is keyed by its name). */
    readonly shared?: SharedClassNames,
  ) {}

  /** How to import the class `symbol` declares, if it is exported from its module. */
  importOf(symbol: TS.Symbol): ClassImport | undefined {
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    if (!declaration) return undefined;
    const file = declaration.getSourceFile();
    const moduleSymbol = this.checker.getSymbolAtLocation(file);
    if (!moduleSymbol) return undefined;
    for (const exported of this.checker.getExportsOfModule(moduleSymbol)) {
      const target =
        exported.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(exported) : exported;
      if (target === symbol) return { file: path.resolve(file.fileName), exportName: exported.name };
    }
    return undefined;
  }

  /**
   * Records the class `name` that `found` imports, and returns its key in the module.
   *
   * @throws SchemaSourceError when two different classes get one key (two `@ToolProvider` classes with one
   * name and one prefix, or a class of another package named like one of the project's).
   */
  add(name: string, found: ClassImport, where: string): string {
    const key = this.shared?.keyOf(name, found.file) ?? name;
    const earlier = this.imports.get(key);
    if (earlier && (earlier.file !== found.file || earlier.exportName !== found.exportName)) {
      throw new SchemaSourceError(
        `${where}: two classes are named ${key} (in ${earlier.file} and ${found.file}); names are keys in ` +
          "the generated module: give same-named @ToolProvider classes different prefixes, or rename one",
      );
    }
    this.imports.set(key, found);
    return key;
  }

  /**
   * The output class `--type` asks for, by its key in the module: a name, or when other exported classes
   * of the project have that name too, the class's qualified key (`--type billing/invoice.Result`).
   *
   * @throws SchemaSourceError for a shared name, listing the keys to ask for instead.
   */
  requested(text: string, files: readonly TS.SourceFile[]): { key: string; found?: ClassImport } {
    const keys = this.shared?.keysOf(text) ?? [];
    if (keys.length > 0)
      throw new SchemaSourceError(
        `--type ${text}: ${keys.length} exported classes of the project are named ${text}: ask for the one you ` +
          `mean by its key in the module, ${keys.map((key) => `--type ${key}`).join(" or ")}`,
      );
    const symbol = this.shared?.classOf(text);
    const found = symbol ? this.importOf(symbol) : this.findExported(text, files);
    return { key: found ? this.add(symbol?.name ?? text, found, "--type") : text, found };
  }

  /** The exported class called `name` in `files`. */
  private findExported(name: string, files: readonly TS.SourceFile[]): ClassImport | undefined {
    for (const file of files) {
      const moduleSymbol = this.checker.getSymbolAtLocation(file);
      const exported =
        moduleSymbol && this.checker.getExportsOfModule(moduleSymbol).find((e) => e.name === name);
      if (!exported) continue;
      const target =
        exported.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(exported) : exported;
      if (target.flags & ts.SymbolFlags.Class) return this.importOf(target);
    }
    return undefined;
  }
}
