// The program is parsed as `tsc` parses it: JSDoc in full in the project's own files only, elsewhere only
// where it can change a type error (`@see`, `@link`). Parsing the JSDoc of every library typing and lib
// file is most of what the CLI did beyond `tsc` (lib.dom.d.ts alone is 1.9 MB, mostly comments). But the
// schema generator reads JSDoc: descriptions and annotations (`@minimum`, `@format`…) of every type and
// field a tool's parameters or an output class reach. This finds the other files that declare such a
// type or field with JSDoc on it, so that they are parsed again in full and every schema is what a
// program parsed in full gives.
import type * as TS from "typescript";
import ts from "./typescript.js";

const MAX_DEPTH = 16;
// The tags typescript-json-schema turns into schema keywords (its `validationKeywords`, `TJS-` tags and
// `items.…`-style sub-definitions); the lib files' own tags (`@param`, `@returns`, `@deprecated`…) are not.
const KEYWORD_TAG =
  /@(?:TJS\b|multipleOf|maximum|exclusiveMaximum|minimum|exclusiveMinimum|maxLength|minLength|pattern|items|maxItems|minItems|uniqueItems|contains|maxProperties|minProperties|additionalProperties|enum|type|examples|ignore|description|format|default|\$ref|id|\$id|\$comment|title)\b/;

/**
 * The files, not parsed in full (`parsedInFull` says which were), whose JSDoc the generator would read:
 * they declare a type, type alias or property reachable from `roots` with a `/** … *\/` comment on it. A
 * TypeScript lib file counts only when that comment has a tag the generator turns into a keyword: it
 * reads no description from the default library.
 */
export function filesWithUnreadJsDoc(
  checker: TS.TypeChecker,
  roots: Iterable<TS.Type>,
  parsedInFull: (file: TS.SourceFile) => boolean,
): Set<string> {
  const files = new Set<string>();
  const seenTypes = new Set<TS.Type>();
  const seenSymbols = new Set<TS.Symbol>();

  const note = (symbol: TS.Symbol | undefined): void => {
    if (!symbol || seenSymbols.has(symbol)) return;
    seenSymbols.add(symbol);
    for (const declaration of symbol.declarations ?? []) {
      const file = declaration.getSourceFile();
      if (parsedInFull(file) || files.has(file.fileName)) continue;
      if (hasJsDoc(declaration, file)) files.add(file.fileName);
    }
  };

  const visit = (type: TS.Type, depth: number): void => {
    if (seenTypes.has(type) || depth > MAX_DEPTH) return;
    seenTypes.add(type);
    note(type.aliasSymbol);
    note(type.getSymbol());
    for (const argument of type.aliasTypeArguments ?? []) visit(argument, depth + 1);
    if (type.isUnionOrIntersection()) {
      for (const member of type.types) visit(member, depth + 1);
      return;
    }
    if (!(type.flags & ts.TypeFlags.Object)) return;
    if ((type as TS.ObjectType).objectFlags & ts.ObjectFlags.Reference)
      for (const argument of checker.getTypeArguments(type as TS.TypeReference)) visit(argument, depth + 1);
    // An array or tuple is its elements to the generator, never its properties.
    if (checker.isArrayType(type) || checker.isTupleType(type)) return;
    for (const info of checker.getIndexInfosOfType(type)) visit(info.type, depth + 1);
    for (const property of checker.getPropertiesOfType(type)) {
      if (!(property.flags & ts.SymbolFlags.Property)) continue;
      note(property);
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (declaration) visit(checker.getTypeOfSymbolAtLocation(property, declaration), depth + 1);
    }
  };

  for (const root of roots) visit(root, 0);
  return files;
}

/** Whether a declaration has a JSDoc comment the generator reads (see {@link filesWithUnreadJsDoc}). */
function hasJsDoc(declaration: TS.Node, file: TS.SourceFile): boolean {
  // A variable's JSDoc sits on its statement (`/** … */ export const x = …`).
  const host =
    ts.isVariableDeclaration(declaration) && ts.isVariableStatement(declaration.parent.parent)
      ? declaration.parent.parent
      : declaration;
  const comments = ts.getLeadingCommentRanges(file.text, host.pos) ?? [];
  return comments.some((range) => {
    const text = file.text.slice(range.pos, range.end);
    return text.startsWith("/**") && (!file.hasNoDefaultLib || KEYWORD_TAG.test(text));
  });
}
