import { isDeepStrictEqual } from "node:util";
import type * as TS from "typescript";
import ts from "./typescript.js";

/** What a generated module says, whatever its formatting: its data, with imported classes as their source. */
export type ModuleMeaning = Readonly<Record<string, unknown>>;

/**
 * Reads a generated schema module as data: the object literal of `toolSchemas`, with each class reference
 * replaced by where it is imported from. Quotes, commas, line breaks (CRLF too) and key order do not
 * matter, so a formatter run over the module changes nothing. Undefined when it is not such a module.
 */
export function readModuleMeaning(text: string): ModuleMeaning | undefined {
  const file = ts.createSourceFile("module.ts", text, ts.ScriptTarget.Latest, false);
  const imports = new Map<string, string>();
  let data: unknown;
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const named = statement.importClause?.namedBindings;
      if (statement.importClause?.isTypeOnly || !named || !ts.isNamedImports(named)) continue;
      for (const element of named.elements) {
        const imported = (element.propertyName ?? element.name).text;
        imports.set(element.name.text, `${statement.moduleSpecifier.text}#${imported}`);
      }
    }
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (
          ts.isIdentifier(declaration.name) &&
          declaration.name.text === "toolSchemas" &&
          declaration.initializer
        )
          data = valueOf(declaration.initializer, imports);
      }
    }
  }
  return typeof data === "object" && data !== null ? (data as ModuleMeaning) : undefined;
}

/** The differences between two generated modules, one line each (`+` added, `-` removed, `~` changed). */
export function describeDifferences(current: ModuleMeaning, fresh: ModuleMeaning, limit = 20): string[] {
  const lines: string[] = [];
  for (const section of new Set([...Object.keys(fresh), ...Object.keys(current)])) {
    if (typeof fresh[section] !== "object" || typeof current[section] !== "object") {
      // a value, not a keyed section (the module's `command`)
      if (!isDeepStrictEqual(current[section], fresh[section])) lines.push(`  ~ ${section}`);
      continue;
    }
    const now = (current[section] ?? {}) as Record<string, unknown>;
    const next = (fresh[section] ?? {}) as Record<string, unknown>;
    for (const key of new Set([...Object.keys(next), ...Object.keys(now)])) {
      if (!(key in now)) lines.push(`  + ${section} ${key}`);
      else if (!(key in next)) lines.push(`  - ${section} ${key}`);
      else if (!isDeepStrictEqual(now[key], next[key])) lines.push(`  ~ ${section} ${key}`);
    }
  }
  return lines.length > limit ? [...lines.slice(0, limit), `  … and ${lines.length - limit} more`] : lines;
}

function valueOf(node: TS.Expression, imports: ReadonlyMap<string, string>): unknown {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node))
    return valueOf(node.expression, imports);
  if (ts.isObjectLiteralExpression(node)) {
    const out: Record<string, unknown> = {};
    for (const property of node.properties) {
      if (ts.isPropertyAssignment(property) && property.name && !ts.isComputedPropertyName(property.name))
        out[property.name.text] = valueOf(property.initializer, imports);
      else if (ts.isShorthandPropertyAssignment(property))
        out[property.name.text] = classRef(property.name.text, imports);
    }
    return out;
  }
  if (ts.isArrayLiteralExpression(node)) return node.elements.map((e) => valueOf(e, imports));
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken)
    return -(valueOf(node.operand, imports) as number);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isIdentifier(node)) return classRef(node.text, imports);
  return { unreadable: node.getText() };
}

function classRef(name: string, imports: ReadonlyMap<string, string>): unknown {
  return { class: imports.get(name) ?? name };
}
