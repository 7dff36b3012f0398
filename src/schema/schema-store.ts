import type { GeneratedSchemas, GeneratedToolSchema } from "./generated-schemas.js";
import type { JsonSchema } from "./json-schema.js";

interface Store {
  tools: Map<string, GeneratedToolSchema>;
  outputs: Map<string, JsonSchema>;
}

// One store per process, shared by every copy of the package (a build and its sources in one test run).
const STORE_KEY = Symbol.for("entity-tools:schema-store");
const holder = globalThis as { [STORE_KEY]?: Store };
const store: Store = (holder[STORE_KEY] ??= { tools: new Map(), outputs: new Map() });

/** The command users run to (re)generate schemas, quoted in every "schema missing" message. */
export const SCHEMA_COMMAND =
  "npx entity-tools schemas --project tsconfig.json --out src/generated/tool-schemas.ts";

/**
 * Makes generated schemas available to tool binding and `createObject`. Call it once at start-up with the
 * module `entity-tools schemas` wrote; later registrations of the same key win.
 */
export function registerToolSchemas(schemas: GeneratedSchemas): void {
  for (const [key, schema] of Object.entries(schemas.tools)) store.tools.set(key, schema);
  for (const [key, schema] of Object.entries(schemas.outputs)) store.outputs.set(key, schema);
}

/** The generated schema of `className.methodName`, if registered. */
export function findToolSchema(className: string, methodName: string): GeneratedToolSchema | undefined {
  return store.tools.get(`${className}.${methodName}`);
}

/** The generated output schema of a class, if registered. */
export function findOutputSchema(className: string): JsonSchema | undefined {
  return store.outputs.get(className);
}
