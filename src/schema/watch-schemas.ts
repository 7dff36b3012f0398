// `entity-tools schemas --watch`, and the build-tool plugin: the module written again when a source file
// changes. TypeScript's own watch API keeps the one program the CLI reads a project with, and makes a new
// one per change with every unchanged file reused (parsed and bound once). The module is written only when
// what it says changed; an error (a syntax error, a type the schemas cannot express) is reported and the
// last good module kept.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type * as TS from "typescript";
import ts from "./typescript.js";
import { emitSchemaModule } from "./emit-schema-module.js";
import { generateFromProgram, type GenerateSchemasOptions } from "./generate-schemas.js";
import { readModuleMeaning } from "./module-meaning.js";
import { readProject, shownPath, type SchemaProgram } from "./schema-program.js";
import { withGuessedInterfaces, type SyntheticBlocks } from "./synthetic-inputs.js";

/** What to watch and where to write: the CLI's `--project`, `--out` and `--type`s. */
export interface WatchSchemasOptions extends GenerateSchemasOptions {
  /** The module to write. */
  readonly out: string;
}

/** What one generation did: wrote the module, found it already up to date, or kept it after an error. */
export type WatchOutcome =
  | { readonly kind: "wrote"; readonly out: string; readonly warnings: readonly string[] }
  | { readonly kind: "unchanged"; readonly out: string }
  | { readonly kind: "error"; readonly out: string; readonly message: string };

/** A running watch. */
export interface SchemaWatch {
  /** Stops watching (its file watchers and timers). */
  close(): void;
}

/**
 * Watches a project and writes its schema module after the first build and after each change
 * (TypeScript's watch debounces a burst of changes into one update). `system` is `ts.sys` for the CLI,
 * or an on-demand one for a build tool (see on-demand-system.ts). Each generation's outcome goes to
 * `report`.
 *
 * @throws SchemaSourceError when the tsconfig.json cannot be read at the start.
 */
export function watchSchemas(
  options: WatchSchemasOptions,
  report: (outcome: WatchOutcome) => void,
  system: TS.System = ts.sys,
): SchemaWatch {
  readProject(options.project); // a bad tsconfig.json at the start is the command's error, not a watch's
  const ids = new Map<string, number>(); // each own file's number, stable across updates
  let own = new Map<string, number>();
  const guessed: SyntheticBlocks = new Map();

  const createProgram: TS.CreateProgram<TS.BuilderProgram> = (
    rootNames,
    compilerOptions,
    host,
    old,
    ...rest
  ) => {
    // (no root names: the configuration broke, and the files are those of the program before)
    if (rootNames) own = new Map(rootNames.map((f) => [path.resolve(f), idOf(ids, path.resolve(f))]));
    return ts.createAbstractBuilder(rootNames, compilerOptions, host, old, ...rest);
  };
  const host = ts.createWatchCompilerHost(
    path.resolve(options.project),
    {},
    system,
    createProgram,
    (diagnostic) => report({ kind: "error", out: options.out, message: describe(diagnostic) }),
    () => undefined, // TypeScript's own status lines ("Starting compilation…") are not ours to print
  );
  host.onUnRecoverableConfigFileDiagnostic = (diagnostic) =>
    report({ kind: "error", out: options.out, message: describe(diagnostic) });
  // Each own file is read with its synthetic interfaces appended, as the CLI's one-off program has them.
  host.readFile = (fileName, encoding) => {
    const text = system.readFile(fileName, encoding);
    const id = own.get(path.resolve(fileName));
    if (text === undefined || id === undefined) return text;
    return withGuessedInterfaces(fileName, text, id, guessed, ts.ScriptTarget.Latest).text;
  };
  let previous: ReadonlyMap<string, TS.SourceFile> = new Map();
  host.afterProgramCreate = (builder) => {
    const program = builder.getProgram();
    const files = new Map(program.getSourceFiles().map((f) => [path.resolve(f.fileName), f]));
    const seen = previous;
    previous = files;
    // The module itself changed (it was just written), and nothing else: there is nothing to regenerate.
    if (onlyChanged(seen, files, path.resolve(options.out))) return;
    const current = new Map([...guessed].filter(([file]) => own.has(file)));
    report(generate({ program, own, guessed: current, jsDocInFull: true }, options));
  };
  const watch = ts.createWatchProgram(host);
  return { close: () => watch.close() };
}

function generate(schemaProgram: SchemaProgram, options: WatchSchemasOptions): WatchOutcome {
  const { out } = options;
  try {
    const source = generateFromProgram(schemaProgram, options);
    return writeIfChanged(out, emitSchemaModule(source, out))
      ? { kind: "wrote", out, warnings: source.warnings }
      : { kind: "unchanged", out };
  } catch (error) {
    // Ours (`SchemaSourceError`) and typescript-json-schema's plain errors (`Not supported: …`) alike: a
    // watch reports them and keeps the last good module, as the one-shot CLI prints them and exits 1.
    return { kind: "error", out, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Writes the module unless the file there already means the same (formatting aside): an unchanged
 * module keeps its modified time, so nothing downstream of it runs again.
 */
function writeIfChanged(out: string, text: string): boolean {
  if (existsSync(out)) {
    const current = readModuleMeaning(readFileSync(out, "utf8"));
    if (current && isDeepStrictEqual(current, readModuleMeaning(text))) return false;
  }
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, text);
  return true;
}

/** Whether `after` differs from `before` (a non-empty program before) in the file `file` alone, if at all. */
function onlyChanged(
  before: ReadonlyMap<string, TS.SourceFile>,
  after: ReadonlyMap<string, TS.SourceFile>,
  file: string,
): boolean {
  if (before.size === 0) return false;
  for (const [name, sourceFile] of after) if (name !== file && before.get(name) !== sourceFile) return false;
  for (const name of before.keys()) if (name !== file && !after.has(name)) return false;
  return true;
}

function idOf(ids: Map<string, number>, file: string): number {
  let id = ids.get(file);
  if (id === undefined) ids.set(file, (id = ids.size));
  return id;
}

function describe(diagnostic: TS.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  if (!diagnostic.file || diagnostic.start === undefined) return text;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${shownPath(diagnostic.file.fileName)}:${line + 1}:${character + 1}: ${text}`;
}
