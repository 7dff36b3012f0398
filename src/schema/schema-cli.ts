import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { emitSchemaModule } from "./emit-schema-module.js";
import { generateSchemas, type GeneratedSource } from "./generate-schemas.js";
import { describeDifferences, readModuleMeaning } from "./module-meaning.js";
import { watchSchemas, type WatchSchemasOptions } from "./watch-schemas.js";

const USAGE = `Usage: entity-tools schemas --project tsconfig.json --out src/generated/tool-schemas.ts [--type Name]... [--check | --watch]

Generates the input schema of every @LlmTool method, and the schema of every class passed to
createObject(...) (plus each --type), into a module to pass to registerToolSchemas().

  --project  the tsconfig.json whose files are scanned (default: tsconfig.json)
  --out      the module to write
  --type     an extra structured-output class to include (repeatable)
  --check    write nothing; exit 1 if --out is missing or means something else than a fresh
             generation (formatting and line endings do not count), and say what differs
  --watch    keep running: write the module again whenever a source file changes (only when what it
             says changed); on an error (a syntax error, a type it cannot express) say where, keep
             the last good module, and go on watching`;

/** Runs the CLI; returns the exit code. */
export function main(argv: readonly string[]): number {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h") {
    console.log(USAGE);
    return 0;
  }
  if (command !== "schemas") {
    console.error(command === undefined ? USAGE : `Unknown command "${command}".\n\n${USAGE}`);
    return 2;
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
        watch: { type: "boolean", default: false },
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
  if (!/\.[cm]?ts$/.test(values.out)) {
    console.error(
      `--out ${values.out}: the generated module is TypeScript, so it needs a .ts (or .mts, .cts) name; your ` +
        "build compiles it with the rest of the project. A plain JavaScript project needs no module: give each " +
        "tool with parameters an explicit @LlmTool({ parameters }) schema (see the README's Plain JavaScript).",
    );
    return 2;
  }
  if (values.watch && values.check) {
    console.error(`--check and --watch do not go together.\n\n${USAGE}`);
    return 2;
  }
  try {
    if (values.watch) return watch({ project: values.project, out: values.out, outputTypes: values.type });
    const source = generateSchemas({ project: values.project, outputTypes: values.type });
    warnIfEmpty(source, values.project);
    for (const warning of source.warnings) console.warn(`entity-tools schemas: warning: ${warning}`);
    const text = emitSchemaModule(source, values.out);
    if (values.check) return check(values.out, text);
    mkdirSync(path.dirname(values.out), { recursive: true });
    writeFileSync(values.out, text);
    console.log(`wrote ${values.out}`);
    return 0;
  } catch (error) {
    console.error(`entity-tools schemas: ${(error as Error).message}`);
    return 1;
  }
}

/** `--watch`: generates now and after every change, until the process is stopped. */
function watch(options: WatchSchemasOptions): number {
  let started = false;
  watchSchemas(options, (outcome) => {
    if (outcome.kind === "error")
      console.error(`entity-tools schemas: ${outcome.message} (kept the last good ${outcome.out})`);
    else if (outcome.kind === "unchanged") console.log(`${outcome.out} is up to date`);
    else {
      for (const warning of outcome.warnings) console.warn(`entity-tools schemas: warning: ${warning}`);
      console.log(`wrote ${outcome.out}`);
    }
    if (!started) console.log(`watching ${options.project} for changes (Ctrl+C to stop)`);
    started = true;
  });
  return 0;
}

/** A project in which nothing was found is most often a JavaScript one, or a wrong `--project`. */
function warnIfEmpty(source: GeneratedSource, project: string): void {
  if (Object.keys(source.tools).length > 0 || Object.keys(source.outputs).length > 0) return;
  console.warn(
    `entity-tools schemas: warning: no @LlmTool method and no createObject/run output class found in the ` +
      `TypeScript files of ${project}. JavaScript files are not read (JavaScript has no types to generate ` +
      "from: give tools explicit @LlmTool({ parameters }) schemas); check the tsconfig's include otherwise.",
  );
}

/** `--check`: 0 when the module means what a fresh generation means, else 1 with what differs. */
function check(out: string, fresh: string): number {
  if (!existsSync(out)) {
    console.error(`${out} is missing: run entity-tools schemas without --check to write it`);
    return 1;
  }
  const current = readModuleMeaning(readFileSync(out, "utf8"));
  const expected = readModuleMeaning(fresh)!;
  if (current && isDeepStrictEqual(current, expected)) return 0;
  const changes = current
    ? describeDifferences(current, expected)
    : ["  (it is not a generated schema module)"];
  console.error(
    `${out} is stale: run entity-tools schemas without --check. What changed:\n${changes.join("\n")}`,
  );
  return 1;
}
