export { registerToolSchemas, findToolSchema, findOutputSchema } from "./schema-store.js";
export type { GeneratedSchemas, GeneratedToolSchema } from "./generated-schemas.js";
export type { JsonSchema } from "./json-schema.js";
export { validateAgainst } from "./validate.js";
export type { ValidationOutcome } from "./validate.js";
