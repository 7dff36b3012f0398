// typescript-json-schema finds a type to generate by its name alone (`getSchemaForSymbol("Result")`), and
// for a name that two of the project's files declare it takes the first. An output class (or a member of
// a union told apart by its schema) whose name another exported class has too is keyed by a qualified key
// (`billing/invoice.Result`, see shared-class-names.ts): the generator is given a name of its own for it, a
// synthetic alias appended to the class's own file (`type __EntityToolsClass_0 = Result;`), where `Result`
// is that file's class. An alias of a class type is the class type itself, so its schema is the class's.
import path from "node:path";
import type * as TS from "typescript";
import { classSymbolOf } from "./class-facts.js";
import type { SourceClasses } from "./source-classes.js";
import type { SyntheticBlocks } from "./synthetic-inputs.js";

const ALIAS_PREFIX = "__EntityToolsClass_";

/**
 * Appends an alias to `blocks` for each of `keys` that is qualified (the class shares its name), and
 * returns the alias of each, by key: the name to ask the generator for.
 */
export function aliasSharedClasses(
  keys: Iterable<string>,
  program: TS.Program,
  classes: SourceClasses,
  blocks: SyntheticBlocks,
): ReadonlyMap<string, string> {
  const checker = program.getTypeChecker();
  const aliases = new Map<string, string>();
  for (const key of new Set(keys)) {
    const found = classes.imports.get(key);
    const symbol = found && classes.shared?.classOf(key) && classSymbolOf(program, checker, found);
    if (!found || !symbol) continue;
    const alias = `${ALIAS_PREFIX}${aliases.size}`;
    const file = path.resolve(found.file);
    const before = blocks.get(file);
    const line = `type ${alias} = ${symbol.name};`;
    blocks.set(file, before === undefined ? line : `${before}\n${line}`);
    aliases.set(key, alias);
  }
  return aliases;
}
