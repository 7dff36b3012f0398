// Which of api-extractor's `ae-forgotten-export` messages are real: a type that a public signature of one
// entry point uses, which no entry point of package.json exports, so a user cannot import it by name.
// The extractor looks at one entry point at a time; a type that another entry point exports (the root's
// `EntityToolsError` in a subpath's signatures) is importable, and is not one. The check compares
// declarations, not names, in the one program all the entry points were analysed in.
import { createRequire } from "node:module";
import path from "node:path";

// The TypeScript the extractor analyses with (its own copy): its syntax kinds and flags are the program's.
const ts = createRequire(createRequire(import.meta.url).resolve("@microsoft/api-extractor"))("typescript");

/**
 * A checker for one program holding every entry point's declarations (`entryFiles`, absolute paths).
 * `unexported(message)` returns, for an `ae-forgotten-export` message, the name and place of the type no
 * entry point exports, or `undefined` when one does.
 */
export function forgottenExports(program, entryFiles) {
  const checker = program.getTypeChecker();
  const target = (symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const exported = new Set();
  for (const file of entryFiles) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file} is not in the program`);
    for (const symbol of checker.getExportsOfModule(module)) exported.add(target(symbol));
  }

  return {
    unexported(message) {
      const name = /"([^"]+)"/.exec(message.text)?.[1] ?? message.text;
      const where = `${path.relative(process.cwd(), message.sourceFilePath ?? "?")}:${message.sourceFileLine ?? "?"}`;
      const symbol = referenced(program, checker, message, name);
      return symbol && exported.has(target(symbol)) ? undefined : { name, where };
    },
  };
}

/** The symbol `name` means where the message points (the declaration whose signature uses it). */
function referenced(program, checker, message, name) {
  const source = message.sourceFilePath && program.getSourceFile(message.sourceFilePath);
  if (!source) return undefined;
  const position = source.getPositionOfLineAndCharacter(
    (message.sourceFileLine ?? 1) - 1,
    (message.sourceFileColumn ?? 1) - 1,
  );
  let node = source;
  for (let inner = node; inner;) {
    node = inner;
    inner = ts.forEachChild(node, (child) =>
      child.pos <= position && position < child.end ? child : undefined,
    );
  }
  const meaning = ts.SymbolFlags.Type | ts.SymbolFlags.Value | ts.SymbolFlags.Namespace;
  // The extractor renames a type that clashes with an exported name (`RunView_2`) in what it reports.
  return (
    checker.resolveName(name, node, meaning, false) ??
    checker.resolveName(name.replace(/_\d+$/, ""), node, meaning, false)
  );
}
