import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { emitSchemaModule } from "./emit-schema-module.js";
import { generateSchemas } from "./generate-schemas.js";

const USAGE = `Usage: entity-tools schemas --project tsconfig.json --out src/generated/tool-schemas.ts [--type Name]... [--check]

Generates the input schema of every @LlmTool method, and the schema of every class passed to
createObject(...) (plus each --type), into a module to pass to registerToolSchemas().

  --project  the tsconfig.json whose files are scanned (default: tsconfig.json)
  --out      the module to write
  --type     an extra structured-output class to include (repeatable)
  --check    write nothing; exit 1 if --out is missing or differs from a fresh generation`;

/** Runs the CLI; returns the exit code. */
export function main(argv: readonly string[]): number {
  const [command, ...rest] = argv;
  if (command !== "schemas") {
    console.error(
      command === undefined || command === "--help" ? USAGE : `Unknown command "${command}".\n\n${USAGE}`,
    );
    return command === "--help" ? 0 : 2;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: [...rest],
      options: {
        project: { type: "string", default: "tsconfig.json" },
        out: { type: "string" },
        type: { type: "string", multiple: true },
        check: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.out) {
    console.error(`--out is required.\n\n${USAGE}`);
    return 2;
  }
  try {
    const text = emitSchemaModule(generateSchemas({ project: values.project, outputTypes: values.type }));
    if (values.check) {
      const current = readOrEmpty(values.out);
      if (current === text) return 0;
      console.error(`${values.out} is stale: run entity-tools schemas without --check`);
      return 1;
    }
    mkdirSync(path.dirname(values.out), { recursive: true });
    writeFileSync(values.out, text);
    console.log(`wrote ${values.out}`);
    return 0;
  } catch (error) {
    console.error(`entity-tools schemas: ${(error as Error).message}`);
    return 1;
  }
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
