import { EntityToolsError } from "../src/errors/entity-tools-error.js";

/**
 * Thrown while a class is being defined when a decorator is used in a way that can never work
 * (an `@LlmTool` on a field, two tools with one name, an empty description...). The message names the
 * class and member so the mistake is found at import time, not mid-conversation. An explicit
 * `@LlmTool({ parameters })` schema that cannot describe its method is refused with it before any model
 * call: when the tool is bound, or (not valid JSON Schema) when the run starts.
 */
export class DecoratorMisuseError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "DecoratorMisuseError";
}

/** `Customer.getRecentOrders`, or `Customer.constructor` for a class-level problem. */
export function memberLabel(target: object, member: string | symbol): string {
  const owner = typeof target === "function" ? target : target.constructor;
  return `${(owner as { name?: string }).name || "<anonymous class>"}.${String(member)}`;
}
