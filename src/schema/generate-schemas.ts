import path from "node:path";
import ts from "typescript";
import { buildGenerator } from "typescript-json-schema";
import type { ParametersSchema as ToolInputSchema } from "../../decorators/index.js";
import {
  findOutputClasses,
  findToolMethods,
  SchemaSourceError,
  type SourceToolMethod,
} from "./find-tool-methods.js";
import type { GeneratedSchemas, GeneratedToolSchema } from "./generated-schemas.js";
import { inlineRefs } from "./inline-refs.js";
import type { JsonSchema } from "./json-schema.js";

/** Options of {@link generateSchemas}. */
export interface GenerateSchemasOptions {
  /** The tsconfig.json whose files are scanned. */
  readonly project: string;
  /** Output classes to include besides those passed to `createObject(...)` in the sources. */
  readonly outputTypes?: readonly string[];
}

const SYNTHETIC_PREFIX = "__EntityToolsInput_";

/**
 * Generates the input schema of every `@LlmTool` method (and the schema of every structured-output
 * class) in a TypeScript project, with `typescript-json-schema`. Build-time only: this loads the compiler
 * and takes seconds.
 *
 * How: each method's parameters are written as a synthetic interface appended to the method's own file
 * (so every type name resolves as it does in the method), and the generator turns that interface into an
 * object schema: names, optionality, unions, arrays, nested types, `Date` as `date-time`, and
 * descriptions from `@ToolParam` or JSDoc `@param`.
 */
export function generateSchemas(options: GenerateSchemasOptions): GeneratedSchemas {
  const config = readProject(options.project);
  const firstProgram = ts.createProgram(config.fileNames, config.options);
  const checker = firstProgram.getTypeChecker();

  const methods: { method: SourceToolMethod; synthetic: string }[] = [];
  const appended = new Map<string, string>();
  const outputs = new Set(options.outputTypes ?? []);
  for (const sourceFile of firstProgram.getSourceFiles()) {
    if (sourceFile.isDeclarationFile || sourceFile.fileName.includes("/node_modules/")) continue;
    for (const name of findOutputClasses(sourceFile, checker)) outputs.add(name);
    const blocks: string[] = [];
    for (const method of findToolMethods(sourceFile, checker)) {
      if (method.explicitSchema) continue;
      const synthetic = `${SYNTHETIC_PREFIX}${methods.length}`;
      methods.push({ method, synthetic });
      blocks.push(syntheticInterface(synthetic, method));
    }
    if (blocks.length > 0) appended.set(path.resolve(sourceFile.fileName), blocks.join("\n"));
  }

  const host = ts.createCompilerHost(config.options);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const extra = appended.get(path.resolve(fileName));
    if (extra === undefined) return readSource(fileName, languageVersion, onError, shouldCreate);
    const text = `${ts.sys.readFile(fileName) ?? ""}\n${extra}\n`;
    return ts.createSourceFile(fileName, text, languageVersion, true);
  };
  const program = ts.createProgram(config.fileNames, config.options, host, firstProgram);
  const generator = buildGenerator(program, {
    required: true,
    noExtraProps: true,
    ref: true,
    titles: false,
    ignoreErrors: true,
    strictNullChecks: true,
  });
  if (!generator) throw new SchemaSourceError("typescript-json-schema could not read the project");

  const tools: Record<string, GeneratedToolSchema> = {};
  for (const { method, synthetic } of methods) {
    const key = `${method.className}.${method.methodName}`;
    if (tools[key])
      throw new SchemaSourceError(`two classes named ${method.className} both declare ${method.methodName}`);
    const schema = inlineRefs(generator.getSchemaForSymbol(synthetic) as JsonSchema);
    tools[key] = {
      parameters: method.parameters.map((p) => p.name),
      inputSchema: {
        ...schema,
        type: "object",
        properties: (schema.properties ?? {}) as ToolInputSchema["properties"],
      },
    };
  }
  const outputSchemas: Record<string, JsonSchema> = {};
  for (const name of [...outputs].sort()) {
    outputSchemas[name] = inlineRefs(generator.getSchemaForSymbol(name) as JsonSchema);
  }
  return { tools: sortKeys(tools), outputs: outputSchemas };
}

function readProject(project: string): ts.ParsedCommandLine {
  const diagnostics: ts.Diagnostic[] = [];
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

function syntheticInterface(name: string, method: SourceToolMethod): string {
  const fields = method.parameters.map((p) => {
    const doc = [p.description, p.defaultText !== undefined ? `@default ${p.defaultText}` : undefined]
      .filter((line): line is string => line !== undefined)
      .map((line) => `   * ${line.replace(/\*\//g, "* /")}`);
    const comment = doc.length > 0 ? `  /**\n${doc.join("\n")}\n   */\n` : "";
    return `${comment}  ${p.name}${p.optional ? "?" : ""}: ${p.typeText};`;
  });
  return `interface ${name} {\n${fields.join("\n")}\n}`;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
