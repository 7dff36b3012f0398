import type * as TS from "typescript";
import ts from "./typescript.js";
import type { InputType } from "./generated-schemas.js";
import { findDecorator } from "./decorator-calls.js";
import { SchemaSourceError } from "./schema-source-error.js";
import type { ClassImport, SourceClasses } from "./source-classes.js";
import { returnedProviders } from "./returned-providers.js";
import { TypeReading } from "./type-reading.js";

/** One parameter of an `@LlmTool` method as the schema generator sees it. */
export interface SourceParameter {
  readonly name: string;
  readonly optional: boolean;
  /** TypeScript type text, valid in the scope of the method's file. */
  readonly typeText: string;
  readonly description?: string;
  /** A literal default value, reported as the schema's `default`. */
  readonly defaultText?: string;
  /** How its JSON becomes the declared type, when it must (a Date, a class...). */
  readonly inputType?: InputType;
  /** `file:line: Class.method parameter "name"`, for messages. */
  readonly label: string;
  /** Declared `any` or `unknown`: an empty schema is what it means. */
  readonly acceptsAnything: boolean;
}

/** An `@LlmTool` method found in the sources. */
export interface SourceToolMethod {
  /**
   * The class's key in the generated module: its name in the sources (a class expression's variable name
   * when it has none), qualified when another exported class of the project has it too.
   */
  readonly className: string;
  /** How to import the class, when it is exported. */
  readonly classImport?: ClassImport;
  readonly methodName: string;
  readonly parameters: readonly SourceParameter[];
  /** `@LlmTool({ parameters })` given explicitly: its schema wins, nothing is generated. */
  readonly explicitSchema: boolean;
  /** The `@ToolProvider` classes it can return (see `returnedProviders`). */
  readonly returns: readonly string[];
}

/** Every `@LlmTool` method of the classes (declarations and class expressions) in one source file. */
export function findToolMethods(
  sourceFile: TS.SourceFile,
  checker: TS.TypeChecker,
  classes: SourceClasses,
): SourceToolMethod[] {
  return toolMethodNodes(sourceFile).map(({ named, member, explicitSchema }) => {
    const symbol = named.symbolNode && checker.getSymbolAtLocation(named.symbolNode);
    const methodName = memberName(member, sourceFile);
    const label = `${named.name}.${methodName}`;
    const classImport = symbol ? classes.importOf(symbol) : undefined;
    return {
      className: classImport ? classes.add(named.name, classImport, sourceFile.fileName) : named.name,
      classImport,
      methodName,
      explicitSchema,
      returns: returnedProviders(member, checker, classes),
      parameters: member.parameters.map((p) =>
        describeParameter(p, sourceFile, checker, label, explicitSchema ? undefined : classes),
      ),
    };
  });
}

/** An `@LlmTool` method's declaration, as the syntax alone gives it (no checker: see `synthetic-inputs`). */
export interface ToolMethodNode {
  readonly named: { readonly name: string; readonly symbolNode?: TS.Node };
  readonly member: TS.MethodDeclaration;
  /** `@LlmTool({ parameters })` given explicitly. */
  readonly explicitSchema: boolean;
}

/** The `@LlmTool` methods of a file's named classes, in source order. */
export function toolMethodNodes(sourceFile: TS.SourceFile): ToolMethodNode[] {
  const found: ToolMethodNode[] = [];
  const visit = (node: TS.Node): void => {
    const named = (ts.isClassDeclaration(node) || ts.isClassExpression(node)) && classNameOf(node);
    for (const member of named ? node.members : []) {
      // Static and `#private` methods are never tools: the decorator refuses them where the class is defined.
      const decorator = isInstanceMethod(member) && findDecorator(member, "LlmTool");
      if (named && decorator) found.push({ named, member, explicitSchema: hasExplicitParameters(decorator) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function isInstanceMethod(member: TS.ClassElement): member is TS.MethodDeclaration {
  return (
    ts.isMethodDeclaration(member) &&
    !ts.isPrivateIdentifier(member.name) &&
    !member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)
  );
}

/** A class's source name, and the node whose symbol is the class as other modules import it. */
function classNameOf(node: TS.ClassLikeDeclaration): { name: string; symbolNode?: TS.Node } | undefined {
  if (node.name)
    return { name: node.name.text, symbolNode: ts.isClassDeclaration(node) ? node.name : node.parent };
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name))
    return { name: parent.name.text, symbolNode: parent.name };
  return undefined;
}

/** A method's name as the runtime sees it: `"move.book"()` is `move.book`. */
function memberName(member: TS.MethodDeclaration, sourceFile: TS.SourceFile): string {
  const name = member.name;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isPrivateIdentifier(name)) return name.text;
  // `["find-one"]()` is `find-one` at run time, where the schema is looked up by that name.
  if (ts.isComputedPropertyName(name) && ts.isStringLiteralLike(name.expression)) return name.expression.text;
  return name.getText(sourceFile);
}

function hasExplicitParameters(call: TS.CallExpression): boolean {
  const arg = call.arguments[0];
  return (
    arg !== undefined &&
    ts.isObjectLiteralExpression(arg) &&
    arg.properties.some(
      (p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === "parameters",
    )
  );
}

function describeParameter(
  param: TS.ParameterDeclaration,
  sourceFile: TS.SourceFile,
  checker: TS.TypeChecker,
  method: string,
  classes: SourceClasses | undefined,
): SourceParameter {
  const where = () => {
    const { line } = sourceFile.getLineAndCharacterOfPosition(param.getStart(sourceFile));
    return `${sourceFile.fileName}:${line + 1}`;
  };
  // The model's input is one object keyed by parameter names: a parameter without one cannot be sent.
  if (!ts.isIdentifier(param.name)) {
    const position = (param.parent as TS.MethodDeclaration).parameters.indexOf(param) + 1;
    throw new SchemaSourceError(
      `${where()}: ${method} parameter #${position} (${param.name.getText(sourceFile)}) is a destructuring pattern: ` +
        "a tool's input is one object keyed by the method's parameter names; give the parameter a name and read its fields in the method",
    );
  }
  if (param.dotDotDotToken) {
    throw new SchemaSourceError(
      `${where()}: ${method} parameter "${param.name.text}" is a rest parameter: a tool's input is one object ` +
        `keyed by the method's parameter names; take an array instead (${param.name.text}: T[])`,
    );
  }
  const type = checker.getTypeAtLocation(param);
  const declared = declaredParameter(param, sourceFile);
  const typeText = declared.typeText ?? checker.typeToString(type, param, ts.TypeFormatFlags.NoTruncation);
  let inputType: InputType | undefined;
  const context = `${where()}: ${method} parameter "${param.name.text}"`;
  if (classes) {
    const reading = new TypeReading(checker, classes, context, param.name.text);
    reading.refuseUnsupported(type, typeText);
    inputType = reading.inputTypeOf(type);
  }
  return {
    ...declared,
    typeText,
    inputType,
    label: context,
    acceptsAnything:
      (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0 &&
      (type as { intrinsicName?: string }).intrinsicName !== "error",
  };
}

/**
 * What a parameter's declaration says by itself: its type text only when it is annotated (else the
 * checker's). `descriptions` and `@default` are read from the syntax, so a synthetic interface can be
 * written before any type is known.
 */
export function declaredParameter(
  param: TS.ParameterDeclaration,
  sourceFile: TS.SourceFile,
): Pick<SourceParameter, "name" | "optional" | "description" | "defaultText"> & { typeText?: string } {
  return {
    name: ts.isIdentifier(param.name) ? param.name.text : param.name.getText(sourceFile),
    optional: param.questionToken !== undefined || param.initializer !== undefined,
    typeText: param.type?.getText(sourceFile),
    description: toolParamText(param) ?? jsDocParamText(param),
    defaultText:
      param.initializer && isLiteral(param.initializer) ? param.initializer.getText(sourceFile) : undefined,
  };
}

function toolParamText(param: TS.ParameterDeclaration): string | undefined {
  const arg = findDecorator(param, "ToolParam")?.arguments[0];
  return arg && ts.isStringLiteralLike(arg) ? arg.text : undefined;
}

function jsDocParamText(param: TS.ParameterDeclaration): string | undefined {
  for (const tag of ts.getJSDocParameterTags(param)) {
    const text = ts
      .getTextOfJSDocComment(tag.comment)
      ?.replace(/^[\s-]+/, "")
      .trim();
    if (text) return text;
  }
  return undefined;
}

/** A literal a schema's `default` can quote: a number (signed), a string, `true` or `false`. */
export function isLiteral(node: TS.Expression): boolean {
  return (
    ts.isNumericLiteral(node) ||
    ts.isStringLiteral(node) ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword ||
    (ts.isPrefixUnaryExpression(node) && ts.isNumericLiteral(node.operand))
  );
}

/**
 * The structured-output targets named in the sources, by their keys in the module (qualified when another
 * exported class of the project has the name too: see `SharedClassNames`): classes passed as
 * `createObject(Class, ...)` and as `run(prompt, { output: Class })`.
 */
export function findOutputClasses(
  sourceFile: TS.SourceFile,
  checker: TS.TypeChecker,
  classes: SourceClasses,
): string[] {
  const found: string[] = [];
  const outputClassName = (node: TS.Node | undefined): string | undefined => {
    if (!node || !ts.isIdentifier(node)) return undefined;
    const symbol = checker.getSymbolAtLocation(node);
    const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (!target || !(target.flags & ts.SymbolFlags.Class)) return undefined;
    const classImport = classes.importOf(target);
    return classImport ? classes.add(target.name, classImport, sourceFile.fileName) : target.name;
  };
  const visit = (node: TS.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const target =
        method === "createObject"
          ? node.arguments[0]
          : method === "run"
            ? outputProperty(node.arguments[1])
            : undefined;
      const name = outputClassName(target);
      if (name) found.push(name);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** The value of `output` in an object literal argument. */
function outputProperty(arg: TS.Expression | undefined): TS.Expression | undefined {
  if (!arg || !ts.isObjectLiteralExpression(arg)) return undefined;
  for (const property of arg.properties) {
    if (
      ts.isPropertyAssignment(property) &&
      ts.isIdentifier(property.name) &&
      property.name.text === "output"
    ) {
      return property.initializer;
    }
    if (ts.isShorthandPropertyAssignment(property) && property.name.text === "output") return property.name;
  }
  return undefined;
}
