import { classTransformer } from "../lazy/class-transformer.js";
import { loadValidator } from "../schema/validate.js";

/**
 * Loads, with `import()`, what a tool call needs and `import("entity-tools")` leaves out (ajv and its
 * formats, class-transformer). A run and the MCP server's call handler await it before their first call:
 * in a bundle this is what carries the two (a bundler follows `import()`, not the `require` fallback).
 * Once settled it costs nothing.
 */
export async function loadRuntimeDependencies(): Promise<void> {
  await Promise.all([loadValidator(), classTransformer.load()]);
}
