import ts from "typescript";
import { EntityToolsError } from "../errors/entity-tools-error.js";

/** One parameter of an `@LlmTool` method as the schema generator sees it. */
export interface SourceParameter {
  readonly name: string;
  readonly optional: boolean;
  /** TypeScript type text, valid in the scope of the method's file. */
  readonly typeText: string;
  readonly description?: string;
  /** A literal default value, reported as the schema's `default`. */
  readonly defaultText?: string;
}

/** An `@LlmTool` method found in the sources. */
export interface SourceToolMethod {
  readonly className: string;
  readonly methodName: string;
  readonly parameters: readonly SourceParameter[];
  /** `@LlmTool({ parameters })` given explicitly: its schema wins, nothing is generated. */
  readonly explicitSchema: boolean;
}

/** A problem in the sources that makes a schema impossible; reported with file and line. */
export class SchemaSourceError extends EntityToolsError {}

/** Every `@LlmTool` method of the named classes in one source file. */
export function findToolMethods(sourceFile: ts.SourceFile, checker: ts.TypeChecker): SourceToolMethod[] {
  const found: SourceToolMethod[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) && node.name) {
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member)) continue;
        const decorator = findDecorator(member, "LlmTool");
        if (!decorator) continue;
        found.push({
          className: node.name.text,
          methodName: member.name.getText(sourceFile),
          explicitSchema: hasExplicitParameters(decorator),
          parameters: member.parameters.map((p) => describeParameter(p, sourceFile, checker)),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function findDecorator(node: ts.HasDecorators, name: string): ts.CallExpression | undefined {
  for (const decorator of ts.getDecorators(node) ?? []) {
    const call = decorator.expression;
    if (!ts.isCallExpression(call)) continue;
    const callee = call.expression;
    const calleeName = ts.isIdentifier(callee)
      ? callee.text
      : ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : "";
    if (calleeName === name) return call;
  }
  return undefined;
}

function hasExplicitParameters(call: ts.CallExpression): boolean {
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
  param: ts.ParameterDeclaration,
  sourceFile: ts.SourceFile,
  checker: ts.TypeChecker,
): SourceParameter {
  const where = () => {
    const { line } = sourceFile.getLineAndCharacterOfPosition(param.getStart(sourceFile));
    return `${sourceFile.fileName}:${line + 1}`;
  };
  if (!ts.isIdentifier(param.name)) {
    throw new SchemaSourceError(
      `${where()}: a tool parameter must be a plain name, not a destructuring pattern`,
    );
  }
  if (param.dotDotDotToken) throw new SchemaSourceError(`${where()}: a tool cannot take a rest parameter`);
  const typeText = param.type
    ? param.type.getText(sourceFile)
    : checker.typeToString(checker.getTypeAtLocation(param), param, ts.TypeFormatFlags.NoTruncation);
  return {
    name: param.name.text,
    optional: param.questionToken !== undefined || param.initializer !== undefined,
    typeText,
    description: toolParamText(param) ?? jsDocParamText(param),
    defaultText:
      param.initializer && isLiteral(param.initializer) ? param.initializer.getText(sourceFile) : undefined,
  };
}

function toolParamText(param: ts.ParameterDeclaration): string | undefined {
  const arg = findDecorator(param, "ToolParam")?.arguments[0];
  return arg && ts.isStringLiteralLike(arg) ? arg.text : undefined;
}

function jsDocParamText(param: ts.ParameterDeclaration): string | undefined {
  for (const tag of ts.getJSDocParameterTags(param)) {
    const text = ts
      .getTextOfJSDocComment(tag.comment)
      ?.replace(/^[\s-]+/, "")
      .trim();
    if (text) return text;
  }
  return undefined;
}

function isLiteral(node: ts.Expression): boolean {
  return (
    ts.isNumericLiteral(node) ||
    ts.isStringLiteral(node) ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword ||
    (ts.isPrefixUnaryExpression(node) && ts.isNumericLiteral(node.operand))
  );
}

/**
 * The structured-output targets named in the sources: classes passed as `createObject(Class, ...)` and as
 * `run(prompt, { output: Class })`.
 */
export function findOutputClasses(sourceFile: ts.SourceFile, checker: ts.TypeChecker): string[] {
  const found: string[] = [];
  const classNameOf = (node: ts.Node | undefined): string | undefined => {
    if (!node || !ts.isIdentifier(node)) return undefined;
    const symbol = checker.getSymbolAtLocation(node);
    const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return target && target.flags & ts.SymbolFlags.Class ? target.name : undefined;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const target =
        method === "createObject"
          ? node.arguments[0]
          : method === "run"
            ? outputProperty(node.arguments[1])
            : undefined;
      const name = classNameOf(target);
      if (name) found.push(name);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** The value of `output` in an object literal argument. */
function outputProperty(arg: ts.Expression | undefined): ts.Expression | undefined {
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
