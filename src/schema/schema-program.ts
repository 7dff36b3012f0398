// The program the schema CLI reads a project with: one parse of the project (with each method's
// parameters appended to its file as a synthetic interface, see synthetic-inputs.ts), whose one checker
// reads the sources and whose files the schema generator is given. `--watch` gets the same kind of program
// from TypeScript's watch API, a new one per change, with the unchanged files reused.
import path from "node:path";
import type * as TS from "typescript";
import ts from "./typescript.js";
import { classSymbolOf } from "./class-facts.js";
import { toolMethodNodes } from "./find-tool-methods.js";
import { filesWithUnreadJsDoc } from "./jsdoc-files.js";
import { SchemaSourceError } from "./schema-source-error.js";
import type { SourceClasses } from "./source-classes.js";
import { correctedProgram, guessingHost, sameBlocks, type SyntheticBlocks } from "./synthetic-inputs.js";

/** A program built for the schema generator, with what it was built with. */
export interface SchemaProgram {
  readonly program: TS.Program;
  /**
   * The project's own files (its `include`, not every file they import): absolute path → the number its
   * synthetic interfaces are named by.
   */
  readonly own: ReadonlyMap<string, number>;
  /** The synthetic interfaces written from the syntax alone, by file (absolute path). */
  readonly guessed: SyntheticBlocks;
  /** Every file's JSDoc was parsed (else only the project's own files' were, as `tsc` does). */
  readonly jsDocInFull: boolean;
}

/**
 * Reads a tsconfig.json.
 *
 * @throws SchemaSourceError when it cannot be read.
 */
export function readProject(project: string): TS.ParsedCommandLine {
  const diagnostics: TS.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(path.resolve(project), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => diagnostics.push(d),
  });
  if (!parsed || diagnostics.length > 0) {
    const text = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("; ");
    throw new SchemaSourceError(`cannot read ${project}: ${text || "unknown error"}`);
  }
  return parsed;
}

/** The program of a project, parsed once, JSDoc as `tsc` parses it. */
export function createSchemaProgram(config: TS.ParsedCommandLine): SchemaProgram {
  const own = new Map(config.fileNames.map((f, i) => [path.resolve(f), i]));
  const guessed: SyntheticBlocks = new Map();
  const program = ts.createProgram(
    config.fileNames,
    config.options,
    guessingHost(config.options, own, guessed),
  );
  return { program, own, guessed, jsDocInFull: false };
}

/**
 * The program to give the generator: the one the sources were read with, unless a synthetic interface
 * written from the syntax is not the checker's (`appended`: an unannotated parameter of a type the
 * syntax does not give) or a type the schemas reach (from `roots`) has JSDoc in a file not parsed in
 * full: then those files are parsed again into a second program, which reuses every other file.
 */
export function generatorProgram(
  { program, own, guessed, jsDocInFull }: SchemaProgram,
  appended: SyntheticBlocks,
  roots: Iterable<TS.Type>,
): TS.Program {
  const jsDocFiles = jsDocInFull
    ? new Set<string>()
    : filesWithUnreadJsDoc(program.getTypeChecker(), roots, (f) => own.has(path.resolve(f.fileName)));
  if (sameBlocks(guessed, appended) && jsDocFiles.size === 0) return program;
  const config = { fileNames: program.getRootFileNames(), options: program.getCompilerOptions() };
  const reparsed = new Set([...jsDocFiles].map((f) => path.resolve(f)));
  return correctedProgram(config, program, guessed, appended, reparsed);
}

/** The types the schemas are generated from: every generated tool's parameters, and the output classes. */
export function* rootTypes(
  sources: readonly TS.SourceFile[],
  program: TS.Program,
  classes: SourceClasses,
  outputs: Iterable<string>,
): Generator<TS.Type> {
  const checker = program.getTypeChecker();
  for (const sourceFile of sources)
    for (const { member, explicitSchema } of toolMethodNodes(sourceFile))
      if (!explicitSchema)
        for (const parameter of member.parameters) yield checker.getTypeAtLocation(parameter);
  for (const name of outputs) {
    const found = classes.imports.get(name);
    const symbol = found && classSymbolOf(program, checker, found);
    if (symbol) yield checker.getDeclaredTypeOfSymbol(symbol);
  }
}

const SHOWN_ERRORS = 5;

/**
 * A syntax error in one of the project's own files: the sources cannot be read as the user meant them,
 * so no module is written from them (`--watch` keeps the last good one).
 *
 * @throws SchemaSourceError naming each error's file, line and column (the first few).
 */
export function refuseSyntaxErrors(program: TS.Program, own: ReadonlyMap<string, number>): void {
  const broken = program
    .getSourceFiles()
    .filter((f) => own.has(path.resolve(f.fileName)) && program.getSyntacticDiagnostics(f).length > 0);
  if (broken.length === 0) return;
  // Located in the file as the user wrote it: the program's copy has synthetic interfaces appended.
  const errors = broken.flatMap((f) => syntaxErrorsOf(f.fileName, ts.sys.readFile(f.fileName) ?? f.text));
  const shown = errors.slice(0, SHOWN_ERRORS).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const file = d.file ? shownPath(d.file.fileName) : "?";
    const at = where ? `${file}:${where.line + 1}:${where.character + 1}` : file;
    return `${at}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
  const more = errors.length > SHOWN_ERRORS ? ` (and ${errors.length - SHOWN_ERRORS} more)` : "";
  throw new SchemaSourceError(`syntax error in the project: ${shown.join("; ")}${more}`);
}

function syntaxErrorsOf(fileName: string, text: string): readonly TS.Diagnostic[] {
  const { diagnostics = [] } = ts.transpileModule(text, { fileName, reportDiagnostics: true });
  return diagnostics.filter((d) => d.file !== undefined);
}

/** A file as messages name it: relative to the working directory when inside it. */
export function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}
