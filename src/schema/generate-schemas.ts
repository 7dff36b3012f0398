import path from "node:path";
import type * as TS from "typescript";
import { buildGenerator, GENERATOR_SETTINGS } from "./typescript.js";
import type { ParametersSchema as ToolInputSchema } from "../../decorators/index.js";
import { findOutputClasses, findToolMethods, type SourceToolMethod } from "./find-tool-methods.js";
import type { GeneratedToolSchema, InputType } from "./generated-schemas.js";
import { hiddenFieldsOf, outputTypesOf } from "./class-facts.js";
import { aliasSharedClasses } from "./class-aliases.js";
import { withMemberSchemas } from "./class-unions.js";
import { inlineRefs } from "./inline-refs.js";
import type { JsonSchema } from "./json-schema.js";
import { mappedRecordHook } from "./mapped-records.js";
import { brandHook } from "./branded-primitives.js";
import { SchemaSourceError } from "./schema-source-error.js";
import { SharedClassNames } from "./shared-class-names.js";
import { SourceClasses, type ClassImport } from "./source-classes.js";
import {
  createSchemaProgram,
  generatorProgram,
  readProject,
  refuseSyntaxErrors,
  rootTypes,
  type SchemaProgram,
} from "./schema-program.js";
import { syntheticBlock, syntheticName, type SyntheticBlocks } from "./synthetic-inputs.js";

/** Options of {@link generateSchemas}. */
export interface GenerateSchemasOptions {
  /** The tsconfig.json whose files are scanned. */
  readonly project: string;
  /** Output classes to include besides those passed to `createObject(...)` in the sources. */
  readonly outputTypes?: readonly string[];
}

/** What the generator found: the schemas, and the classes the generated module imports, by name. */
export interface GeneratedSource {
  readonly tools: Readonly<Record<string, GeneratedToolSchema>>;
  readonly outputs: Readonly<Record<string, JsonSchema>>;
  readonly classImports: Readonly<Record<string, ClassImport>>;
  /** How output classes' JSON becomes instances (see {@link outputTypesOf}). */
  readonly outputTypes: Readonly<Record<string, InputType>>;
  /** `private`/`protected` fields by class (see {@link hiddenFieldsOf}). */
  readonly hiddenFields: Readonly<Record<string, readonly string[]>>;
  /** The request, for the command the module quotes: the project, and the `--type`s asked for. */
  readonly request: { readonly project: string; readonly outputTypes: readonly string[] };
  /** The provider classes each tool method (`Class.method`) can return, for methods that return any. */
  readonly returns: Readonly<Record<string, readonly string[]>>;
  /** What was generated but will not be converted at run time (a union of classes), one line each. */
  readonly warnings: readonly string[];
}

/**
 * Generates the input schema of every `@LlmTool` method (and the schema of every structured-output
 * class) in a TypeScript project, with `typescript-json-schema`. Build-time only: this loads the compiler
 * and takes seconds.
 *
 * How: each method's parameters are written as a synthetic interface appended to the method's own file
 * (so every type name resolves as it does in the method), and the generator turns that interface into an
 * object schema: names, optionality, unions, arrays, nested types, `Date` as `date-time`, and
 * descriptions from `@ToolParam` or JSDoc `@param`. Types JSON cannot carry are refused with the file,
 * method and parameter; parameters that need converting (dates, classes) get an `InputType`.
 *
 * @throws SchemaSourceError for a type it cannot express, a non-exported parameter class, a name clash.
 */
export function generateSchemas(options: GenerateSchemasOptions): GeneratedSource {
  return generateFromProgram(createSchemaProgram(readProject(options.project)), options);
}

/**
 * {@link generateSchemas} over a program already built for it (see `SchemaProgram`): what `--watch` calls
 * on each program TypeScript's watch makes.
 *
 * @throws SchemaSourceError as {@link generateSchemas} does, and for a syntax error in the project's files.
 */
export function generateFromProgram(
  schemaProgram: SchemaProgram,
  options: GenerateSchemasOptions,
): GeneratedSource {
  const { program: firstProgram, own } = schemaProgram;
  refuseSyntaxErrors(firstProgram, own);
  const checker = firstProgram.getTypeChecker();
  const sources = firstProgram
    .getSourceFiles()
    .filter((f) => !f.isDeclarationFile && own.has(path.resolve(f.fileName)));
  const root = path.dirname(path.resolve(options.project));
  const classes = new SourceClasses(checker, SharedClassNames.of(sources, checker, root));

  const methods: { method: SourceToolMethod; synthetic: string }[] = [];
  const appended: SyntheticBlocks = new Map();
  const returns: Record<string, readonly string[]> = {};
  const outputs = new Map<string, string>(); // output class (its key) → the file it is found in
  for (const sourceFile of sources) {
    const file = own.get(path.resolve(sourceFile.fileName))!;
    for (const key of findOutputClasses(sourceFile, checker, classes)) outputs.set(key, sourceFile.fileName);
    const found = findToolMethods(sourceFile, checker, classes);
    for (const method of found)
      if (method.returns.length > 0) returns[`${method.className}.${method.methodName}`] = method.returns;
    found
      .filter((method) => !method.explicitSchema)
      .forEach((method, index) => methods.push({ method, synthetic: syntheticName(file, index) }));
    const block = syntheticBlock(file, found);
    if (block !== undefined) appended.set(path.resolve(sourceFile.fileName), block);
  }
  for (const requested of options.outputTypes ?? []) {
    const { key, found } = classes.requested(requested, sources);
    outputs.set(key, found?.file ?? "");
  }
  const outputNames = [...outputs.keys()].sort();
  // (read before the generator's program is made: it may add members of unions, whose schemas it holds)
  const outputTypes = outputTypesOf(outputNames, firstProgram, classes);
  const aliases = aliasSharedClasses(
    [...outputNames, ...classes.validatedMembers],
    firstProgram,
    classes,
    appended,
  );

  const program = generatorProgram(
    schemaProgram,
    appended,
    rootTypes(sources, firstProgram, classes, outputs.keys()),
  );
  // Only the files that hold a synthetic interface, an output class or a class whose own schema the
  // module holds (a member of a union without a discriminator) are searched for symbols: the generator
  // otherwise walks every declaration of every file, lib and node_modules typings included.
  const searched = [
    ...appended.keys(),
    ...[...outputs.values()].filter(Boolean).map((f) => path.resolve(f)),
    ...[...classes.validatedMembers].map((name) => classes.imports.get(name)!.file),
  ];
  // The generator also indexes every class and interface of every file it is shown (getTypeAtLocation,
  // base types, names), which for a project importing entity-tools and the AI SDK is most of the time:
  // it is shown the project's own files, where every type the schemas name by reference is declared
  // or imported (types from libraries are resolved through the checker, not the index).
  const ownFiles = program.getSourceFiles().filter((f) => own.has(path.resolve(f.fileName)));
  const projectOnly = Object.create(program, { getSourceFiles: { value: () => ownFiles } }) as TS.Program;
  const generator = buildGenerator(projectOnly, GENERATOR_SETTINGS, [...new Set(searched)]);
  if (!generator) throw new SchemaSourceError("typescript-json-schema could not read the project");
  mappedRecordHook.applyTo(generator, program.getTypeChecker());
  brandHook.applyTo(generator, program.getTypeChecker());

  const schemaOf = (name: string) =>
    inlineRefs(generator.getSchemaForSymbol(aliases.get(name) ?? name) as JsonSchema, classes.unionMembers);
  const typed = (type: InputType) => withMemberSchemas(type, schemaOf);
  const tools: Record<string, GeneratedToolSchema> = {};
  for (const { method, synthetic } of methods) {
    const key = `${method.className}.${method.methodName}`;
    if (tools[key])
      throw new SchemaSourceError(`two classes named ${method.className} both declare ${method.methodName}`);
    const schema = schemaOf(synthetic);
    refuseUnresolved(method, schema);
    const types = parameterTypes(method, typed);
    tools[key] = {
      parameters: method.parameters.map((p) => p.name),
      inputSchema: {
        ...schema,
        type: "object",
        properties: (schema.properties ?? {}) as ToolInputSchema["properties"],
      },
      ...(types ? { types } : {}),
    };
  }
  const outputSchemas = Object.fromEntries(outputNames.map((name) => [name, schemaOf(name)]));
  const hiddenFields = hiddenFieldsOf(program, classes);
  return {
    tools: withoutPaths(sortKeys(tools), root),
    outputs: withoutPaths(outputSchemas, root),
    classImports: sortKeys(Object.fromEntries(classes.imports)),
    outputTypes: withoutPaths(mapValues(outputTypes, typed), root),
    hiddenFields,
    request: { project: options.project, outputTypes: options.outputTypes ?? [] },
    returns: sortKeys(returns),
    warnings: classes.warnings,
  };
}

/**
 * A parameter whose schema came out empty although its type is not `any`: the generator could not
 * resolve the type from the method's file (a type it neither declares nor imports by name).
 *
 * @throws SchemaSourceError naming the parameter.
 */
function refuseUnresolved(method: SourceToolMethod, schema: JsonSchema): void {
  const properties = (schema.properties ?? {}) as Record<string, object>;
  for (const p of method.parameters) {
    const property = properties[p.name];
    if (
      p.acceptsAnything ||
      (property && Object.keys(property).some((k) => k !== "description" && k !== "default"))
    )
      continue;
    throw new SchemaSourceError(
      `${p.label} has type ${p.typeText}, which the schema generator could not resolve: give the parameter a ` +
        "type annotation whose type is declared or imported in that file, or an explicit @LlmTool({ parameters }).",
    );
  }
}

/** The parameters that need converting, by name (each as `typed` completes it), or undefined when none does. */
function parameterTypes(
  method: SourceToolMethod,
  typed: (type: InputType) => InputType,
): Record<string, InputType> | undefined {
  const entries = method.parameters.flatMap((p) =>
    p.inputType ? [[p.name, typed(p.inputType)] as const] : [],
  );
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function mapValues<T, U>(record: Readonly<Record<string, T>>, f: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}

/**
 * The value with the project's absolute directory taken out of every string (definition names of types
 * the compiler prints as `import("/abs/path").T`), so the output is the same in every checkout.
 */
function withoutPaths<T>(value: T, root: string): T {
  const text = JSON.stringify(value);
  return JSON.parse(text.split(`${root}/`).join("").split(root).join(".")) as T;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
