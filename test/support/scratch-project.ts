// A TypeScript project written to a fresh temporary folder, for tests of the schema generator.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "./temp-dir.js";

/**
 * Writes `files` (paths relative to the project) and a tsconfig.json that includes `include`, with the
 * compiler settings a decorated ESM project uses, under `<tmp>/<where>`; returns the project folder.
 */
export function scratchProject(files: Record<string, string>, include: string, where = "project"): string {
  const dir = path.join(tempDir("scratch-project-"), where);
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      experimentalDecorators: true,
      skipLibCheck: true,
      types: [],
    },
    include: [include],
  };
  for (const [name, text] of Object.entries({ "tsconfig.json": JSON.stringify(tsconfig), ...files })) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}
