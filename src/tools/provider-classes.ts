import { getLlmTools, getToolClasses } from "../../decorators/index.js";
import { findGeneratedClass, findReturnedClasses, sourceNameOf } from "../schema/schema-store.js";
import { providerOptionsOf } from "./read-provider-id.js";
import type { AnyTool } from "./tool.js";

/**
 * The `@ToolProvider` classes the tools can return, as the generated schema module recorded them, and
 * those the tools of these classes can return in turn, in a deterministic order (first reached first).
 * Tools without a known class (from `defineTool`, an MCP server) contribute nothing.
 */
export function returnedProviderClasses(tools: readonly AnyTool[]): Function[] {
  const found: Function[] = [];
  const seen = new Set<Function>();
  const visit = (cls: Function, methodName: string) => {
    for (const returned of findReturnedClasses(declaringClass(cls, methodName), methodName) ?? []) {
      if (seen.has(returned) || !providerOptionsOf(returned)) continue;
      seen.add(returned);
      found.push(returned);
      for (const method of getLlmTools(returned)) visit(returned, method.methodName);
    }
  };
  for (const tool of tools) {
    const target = tool.origin ?? tool.handleTarget;
    if (target) visit(target.providerClass, target.methodName);
  }
  return found;
}

/** The `@ToolProvider` class whose source name is `name`, among the classes defined so far. */
export function providerClassNamed(name: string): Function | undefined {
  const generated = findGeneratedClass(name);
  if (generated && providerOptionsOf(generated)) return generated;
  return getToolClasses().find((cls) => sourceNameOf(cls) === name && providerOptionsOf(cls) !== undefined);
}

function declaringClass(cls: Function, methodName: string): Function {
  return getLlmTools(cls).find((m) => m.methodName === methodName)?.declaringClass ?? cls;
}
