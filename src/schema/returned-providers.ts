import type * as TS from "typescript";
import ts from "./typescript.js";
import type { SourceClasses } from "./source-classes.js";

// Collections whose elements discovery searches (see extract-providers.ts), and which type argument
// holds them: a Map's values, any other's elements.
const COLLECTIONS: Readonly<Record<string, number>> = {
  Array: 0,
  ReadonlyArray: 0,
  Set: 0,
  ReadonlySet: 0,
  Iterable: 0,
  IterableIterator: 0,
  Map: 1,
  ReadonlyMap: 1,
};

/**
 * The exported `@ToolProvider` classes a method's return type can hold where discovery looks: the value
 * itself or a collection's elements, through `Promise` and unions; recorded in `classes` so the generated
 * module imports them. Source names, sorted.
 */
export function returnedProviders(
  method: TS.MethodDeclaration,
  checker: TS.TypeChecker,
  classes: SourceClasses,
): string[] {
  const signature = checker.getSignatureFromDeclaration(method);
  if (!signature) return [];
  const found = new Set<string>();
  const seen = new Set<TS.Type>();
  const visit = (type: TS.Type, depth: number): void => {
    if (seen.has(type) || depth > 4) return;
    seen.add(type);
    if (type.isUnion() || type.isIntersection()) {
      for (const member of type.types) visit(member, depth);
      return;
    }
    const awaited = checker.getAwaitedType(type);
    if (awaited && awaited !== type) return visit(awaited, depth + 1);
    if (checker.isTupleType(type)) {
      for (const element of checker.getTypeArguments(type as TS.TypeReference)) visit(element, depth + 1);
      return;
    }
    const symbol = type.getSymbol();
    if (!symbol) return;
    const slot = COLLECTIONS[symbol.getName()];
    if (slot !== undefined) {
      const args = checker.getTypeArguments(type as TS.TypeReference);
      if (args[slot]) visit(args[slot], depth + 1);
      return;
    }
    const declaration = symbol.getDeclarations()?.find(ts.isClassLike);
    if (!declaration || !isToolProvider(declaration)) return;
    const name = symbol.getName();
    const where = classes.importOf(symbol);
    if (!where) return; // not exported: the generated module cannot import it
    found.add(classes.add(name, where, method.getSourceFile().fileName));
  };
  visit(signature.getReturnType(), 0);
  return [...found].sort();
}

function isToolProvider(declaration: TS.ClassLikeDeclaration): boolean {
  return (ts.getDecorators(declaration) ?? []).some((d) => {
    const call = d.expression;
    const callee = ts.isCallExpression(call) ? call.expression : call;
    const name = ts.isIdentifier(callee)
      ? callee.text
      : ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : "";
    return name === "ToolProvider";
  });
}
