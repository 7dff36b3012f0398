import { createRequire } from "node:module";
import path from "node:path";
import type * as TypeScript from "typescript";
import { SchemaSourceError } from "./schema-source-error.js";

/** What a user's project installs to run the schema CLI (not needed at run time, so not a dependency). */
export const COMPILER_INSTALL = "npm install --save-dev typescript@5 typescript-json-schema@0.68";

/**
 * Loads a package the schema CLI needs from the user's project first (where `npm install --save-dev`
 * puts it), then from next to this package. `require`, not `import`: importing the compiler's 9 MB
 * CommonJS file from ESM makes Node scan all of it for named exports first (about 0.7 s).
 *
 * @throws SchemaSourceError with the install command when neither has it.
 */
function load<T>(name: string): T {
  const places = [path.join(process.cwd(), "package.json"), import.meta.url];
  for (const from of places) {
    try {
      return createRequire(from)(name) as T;
    } catch (error) {
      if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
    }
  }
  throw new SchemaSourceError(
    `the schema CLI needs ${name}, which this project does not have. Install the compiler packages it uses ` +
      `(build time only): ${COMPILER_INSTALL}`,
  );
}

/** The TypeScript compiler API, loaded once for the schema CLI. */
const ts: typeof TypeScript = load<typeof TypeScript>("typescript");
export default ts;

/** typescript-json-schema's generator (it requires the compiler itself). */
export const { buildGenerator } = load<typeof import("typescript-json-schema")>("typescript-json-schema");
