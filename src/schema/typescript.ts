import { createRequire } from "node:module";
import type * as TypeScript from "typescript";

// `require`, not `import`: importing the compiler's 9 MB CommonJS file from ESM makes Node scan all of it
// for named exports first (about 0.7 s, a fifth of a schema run). The type import stays static.
const require = createRequire(import.meta.url);

/** The TypeScript compiler API, loaded once for the schema CLI. */
const ts: typeof TypeScript = require("typescript") as typeof TypeScript;
export default ts;

/** typescript-json-schema's generator, loaded the same way (it requires the compiler itself). */
export const { buildGenerator } =
  require("typescript-json-schema") as typeof import("typescript-json-schema");
