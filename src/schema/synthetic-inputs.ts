// The synthetic interfaces the schema generator reads: one per `@LlmTool` method, listing its parameters,
// appended to the method's own file so every type name resolves as it does in the method. They are
// written twice: from the syntax alone while the program is parsed (so the one program, with its one type
// checker, serves both the reading of the sources and typescript-json-schema), and from what the checker
// found, which is the truth; only when the two differ is a second program built.
import path from "node:path";
import type * as TS from "typescript";
import ts from "./typescript.js";
import { declaredParameter, isLiteral, toolMethodNodes, type SourceParameter } from "./find-tool-methods.js";

const SYNTHETIC_PREFIX = "__EntityToolsInput_";

type SyntheticParameter = Pick<
  SourceParameter,
  "name" | "optional" | "typeText" | "description" | "defaultText"
>;

/** The name of the `index`-th generated interface of the project's `file`-th file (unique in the program). */
export function syntheticName(file: number, index: number): string {
  return `${SYNTHETIC_PREFIX}${file}_${index}`;
}

/** The interface of one method's parameters: names, optionality, types, descriptions and defaults. */
export function syntheticInterface(name: string, parameters: readonly SyntheticParameter[]): string {
  const fields = parameters.map((p) => {
    const doc = [p.description, p.defaultText !== undefined ? `@default ${p.defaultText}` : undefined]
      .filter((line): line is string => line !== undefined)
      .map((line) => `   * ${line.replace(/\*\//g, "* /")}`);
    const comment = doc.length > 0 ? `  /**\n${doc.join("\n")}\n   */\n` : "";
    // A destructuring pattern has no name: quoted, the interface still parses, and reading the method
    // refuses the pattern with its own message (not an empty "syntax error" of the generated text).
    const key = /^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : JSON.stringify(p.name);
    return `${comment}  ${key}${p.optional ? "?" : ""}: ${p.typeText};`;
  });
  return `interface ${name} {\n${fields.join("\n")}\n}`;
}

/**
 * The text appended to a file for its generated methods (`methods` in source order, those with an
 * explicit schema included and skipped), or undefined when it has none.
 */
export function syntheticBlock(
  file: number,
  methods: readonly {
    readonly explicitSchema: boolean;
    readonly parameters: readonly SyntheticParameter[];
  }[],
): string | undefined {
  const blocks = methods
    .filter((m) => !m.explicitSchema)
    .map((m, index) => syntheticInterface(syntheticName(file, index), m.parameters));
  return blocks.length > 0 ? blocks.join("\n") : undefined;
}

/**
 * {@link syntheticBlock} from the syntax alone (a parsed file with parent pointers). An unannotated
 * parameter's type is what the checker would say for the common cases (none: `any`; a literal default:
 * its widened type) and `unknown` otherwise, which the checker's block then corrects.
 */
function guessedSyntheticBlock(sourceFile: TS.SourceFile, file: number): string | undefined {
  const methods = toolMethodNodes(sourceFile).map(({ member, explicitSchema }) => ({
    explicitSchema,
    parameters: member.parameters.map((p) => {
      const declared = declaredParameter(p, sourceFile);
      return { ...declared, typeText: declared.typeText ?? guessedType(p.initializer) };
    }),
  }));
  return syntheticBlock(file, methods);
}

function guessedType(initializer: TS.Expression | undefined): string {
  if (!initializer) return "any";
  if (!isLiteral(initializer)) return "unknown";
  if (ts.isStringLiteral(initializer)) return "string";
  return ts.isNumericLiteral(initializer) || ts.isPrefixUnaryExpression(initializer) ? "number" : "boolean";
}

/** Where each project file's synthetic interfaces go: absolute path → its text, for the files that have any. */
export type SyntheticBlocks = Map<string, string>;

/** An own file's text as the generator parses it, and the file as parsed for the guess. */
export interface GuessedFile {
  /** The file's text with its guessed synthetic interfaces appended (the text itself when it has none). */
  readonly text: string;
  /** The file's own text parsed (with parent pointers): the file itself when nothing was appended. */
  readonly parsed: TS.SourceFile;
  /** Whether interfaces were appended. */
  readonly appended: boolean;
}

/**
 * The project's own file `fileName` (its number `index` in the project) as the generator reads it, its
 * guessed synthetic interfaces appended, and the guess noted in `guessed` (a file without one, a
 * declaration file included, is taken out of it). The one-off program's host and the watch's both read
 * own files through it.
 */
export function withGuessedInterfaces(
  fileName: string,
  text: string,
  index: number,
  guessed: SyntheticBlocks,
  languageVersion: TS.ScriptTarget | TS.CreateSourceFileOptions,
): GuessedFile {
  // Parent pointers: the guess reads JSDoc `@param`s and class names through them.
  const parsed = ts.createSourceFile(fileName, text, inFull(languageVersion), true);
  const block = parsed.isDeclarationFile ? undefined : guessedSyntheticBlock(parsed, index);
  const resolved = path.resolve(fileName);
  if (block === undefined) {
    guessed.delete(resolved);
    return { text, parsed, appended: false };
  }
  guessed.set(resolved, block);
  return { text: `${text}\n${block}\n`, parsed, appended: true };
}

/**
 * A compiler host that parses the project's own files (`own`: absolute path → index) with their guessed
 * synthetic interfaces appended, and records each file's guess in `guessed`.
 */
export function guessingHost(
  options: TS.CompilerOptions,
  own: ReadonlyMap<string, number>,
  guessed: SyntheticBlocks,
): TS.CompilerHost {
  const host = ts.createCompilerHost(options);
  // JSDoc as `tsc` parses it (see jsdoc-files.ts): in full in the project's own files only.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const index = own.get(path.resolve(fileName));
    const text = index === undefined ? undefined : ts.sys.readFile(fileName);
    if (index === undefined || text === undefined)
      return read(fileName, languageVersion, onError, shouldCreate);
    const file = withGuessedInterfaces(fileName, text, index, guessed, languageVersion);
    return file.appended
      ? ts.createSourceFile(fileName, file.text, inFull(languageVersion), true)
      : file.parsed;
  };
  return host;
}

/** Source file options that parse all JSDoc. */
function inFull(languageVersion: TS.ScriptTarget | TS.CreateSourceFileOptions): TS.CreateSourceFileOptions {
  const options = typeof languageVersion === "object" ? languageVersion : { languageVersion };
  return { ...options, jsDocParsingMode: ts.JSDocParsingMode.ParseAll };
}

/**
 * The program the generator reads when a guess was wrong or a file's JSDoc is needed: `first`'s files,
 * those whose synthetic interfaces differ from `blocks` parsed again with the right ones, and those in
 * `jsDocFiles` parsed again with all their JSDoc (the rest, lib and node_modules typings above all, are
 * reused, not parsed again).
 */
export function correctedProgram(
  config: { readonly fileNames: readonly string[]; readonly options: TS.CompilerOptions },
  first: TS.Program,
  guessed: SyntheticBlocks,
  blocks: SyntheticBlocks,
  jsDocFiles: ReadonlySet<string> = new Set(),
): TS.Program {
  const host = ts.createCompilerHost(config.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const resolved = path.resolve(fileName);
    const block = blocks.get(resolved);
    if (block === guessed.get(resolved) && !jsDocFiles.has(resolved)) {
      const parsed = first.getSourceFile(fileName);
      // (a deduplicated package's file is a redirect, which a host must not return: read that one again)
      if (parsed && !("redirectInfo" in parsed && parsed.redirectInfo)) return parsed;
      return read(fileName, languageVersion, onError, shouldCreate);
    }
    const text = ts.sys.readFile(fileName) ?? "";
    return ts.createSourceFile(
      fileName,
      block === undefined ? text : `${text}\n${block}\n`,
      inFull(languageVersion),
      true,
    );
  };
  return ts.createProgram(config.fileNames, config.options, host, first);
}

/** Whether every file's guessed synthetic interfaces are the checker's. */
export function sameBlocks(guessed: SyntheticBlocks, blocks: SyntheticBlocks): boolean {
  return guessed.size === blocks.size && [...blocks].every(([file, block]) => guessed.get(file) === block);
}
