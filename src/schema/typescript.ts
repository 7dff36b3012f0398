import { createRequire } from "node:module";
import path from "node:path";
import type * as TypeScript from "typescript";
import type { PartialArgs } from "typescript-json-schema";
import { SchemaSourceError } from "./schema-source-error.js";

/** What a user's project installs to run the schema CLI (not needed at run time, so not a dependency). */
export const COMPILER_INSTALL = "npm install --save-dev typescript-json-schema@0.68";

/**
 * Where `typescript-json-schema` is: in the user's project first (where `npm install --save-dev` puts
 * it), then next to this package.
 *
 * @throws SchemaSourceError with the install command when neither has it.
 */
function generatorEntry(): string {
  const places = [path.join(process.cwd(), "package.json"), import.meta.url];
  for (const from of places) {
    try {
      return createRequire(from).resolve("typescript-json-schema");
    } catch (error) {
      if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
    }
  }
  throw new SchemaSourceError(
    "the schema CLI needs typescript-json-schema, which this project does not have. Install it (build time " +
      `only; it brings the TypeScript compiler it uses): ${COMPILER_INSTALL}`,
  );
}

// The compiler is the one typescript-json-schema itself resolves, not the project's: the generator needs
// the TypeScript 5 JavaScript API, which TypeScript 7 (the native compiler) does not ship; npm nests a
// TypeScript 5 under typescript-json-schema when the project has another major. One compiler for both
// also means the program we build is one the generator can read. `require`, not `import`: importing the
// compiler's 9 MB CommonJS file from ESM makes Node scan all of it for named exports first (about 0.7 s).
const entry = generatorEntry();
const requireFromGenerator = createRequire(entry);

/** The TypeScript compiler API, loaded once for the schema CLI. */
const ts = requireFromGenerator("typescript") as typeof TypeScript;
if (typeof ts.createProgram !== "function" || typeof ts.getParsedCommandLineOfConfigFile !== "function") {
  throw new SchemaSourceError(
    `the TypeScript that typescript-json-schema resolves (${requireFromGenerator.resolve("typescript")}, version ` +
      `${String((ts as { version?: unknown }).version)}) has no compiler API (TypeScript 7 ships none). Let ` +
      "typescript-json-schema keep its own TypeScript 5: remove any `overrides`/`resolutions` entry that forces " +
      `another typescript on it, then reinstall: ${COMPILER_INSTALL}`,
  );
}
export default ts;

/** typescript-json-schema's generator. */
export const { buildGenerator } = requireFromGenerator(entry) as typeof import("typescript-json-schema");

/** The settings every generator the schema CLI builds is given (the probe of mapped-records.ts's too). */
export const GENERATOR_SETTINGS = {
  required: true,
  noExtraProps: true,
  ref: true,
  titles: false,
  ignoreErrors: true,
  strictNullChecks: true,
} as const satisfies PartialArgs;
