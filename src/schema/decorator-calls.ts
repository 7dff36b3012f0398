// How the schema CLI finds a decorator in the syntax: `@Name(...)` or `@ns.Name(...)`, called.
import type * as TS from "typescript";
import ts from "./typescript.js";

/** The call of the decorator `name` on `node` (`@LlmTool("…")`, `@tools.LlmTool("…")`), if it has one. */
export function findDecorator(node: TS.HasDecorators, name: string): TS.CallExpression | undefined {
  for (const decorator of ts.getDecorators(node) ?? []) {
    const call = decorator.expression;
    if (!ts.isCallExpression(call)) continue;
    const callee = call.expression;
    const calleeName = ts.isIdentifier(callee)
      ? callee.text
      : ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : "";
    if (calleeName === name) return call;
  }
  return undefined;
}
