// An explicit `@LlmTool({ parameters })` schema is the application's own word for what the model sends, and
// the input reaches the method by parameter name. A schema that cannot describe the method (not valid JSON
// Schema, a property no parameter takes, a required field it does not describe) offered the model a tool
// that failed the run at its first call, dropped what the model sent, or could never be called; so it is
// refused when the tool is bound, before any model call, naming the method.
import { DecoratorMisuseError, type LlmToolMetadata } from "../../decorators/index.js";
import { metaSchemaProblem } from "../schema/validate.js";
import { forwardsArguments, parameterNames } from "./parameter-names.js";

/**
 * The parameter order of a method with an explicit schema: its declared names, or the schema's properties
 * in their order when the method as it runs forwards its arguments (a wrapper another decorator made).
 *
 * @throws DecoratorMisuseError when the schema is not an object schema valid as JSON Schema, when a
 *   parameter has no plain name (a destructuring pattern, a rest parameter), when a property is not a
 *   parameter of the method, or when a required field is not one of its properties.
 */
export function explicitParameters(metadata: LlmToolMetadata, method: Function): readonly string[] {
  const label = `@LlmTool on ${metadata.declaringClass.name}.${metadata.methodName}`;
  const schema = metadata.parameters as unknown as Record<string, unknown>;
  const properties = schema.properties;
  if (schema.type !== "object" || !isPlainObject(properties)) {
    throw new DecoratorMisuseError(
      `${label}: parameters must be an object schema keyed by the method's parameter names ` +
        `({ type: "object", properties: { <parameter>: { … } } }), got ${describeShape(schema)}`,
    );
  }
  const problem = metaSchemaProblem(schema);
  if (problem) throw new DecoratorMisuseError(`${label}: parameters is not a valid JSON Schema (${problem})`);
  const described = Object.keys(properties);
  const declared = forwardsArguments(method) ? described : parameterNames(method);
  const unnamed = declared.indexOf(undefined);
  if (unnamed !== -1) {
    throw new DecoratorMisuseError(
      `${label}: parameter #${unnamed + 1} has no plain name (a destructuring pattern or a rest parameter); ` +
        "the model's input reaches a method by parameter name: give it a name and describe it in parameters under that name",
    );
  }
  const names = declared as string[];
  const stray = described.find((key) => !names.includes(key));
  if (stray !== undefined) {
    throw new DecoratorMisuseError(
      `${label}: parameters describes "${stray}", which is not a parameter of the method ` +
        `(it takes ${names.length > 0 ? names.join(", ") : "none"}): what the model sends as "${stray}" would never reach it`,
    );
  }
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const undescribed = required.find((key) => typeof key !== "string" || !described.includes(key));
  if (undescribed !== undefined) {
    throw new DecoratorMisuseError(
      `${label}: parameters requires ${JSON.stringify(undescribed)}, which its properties do not describe: ` +
        "no call the model makes would be valid",
    );
  }
  return names;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeShape(schema: Record<string, unknown>): string {
  if (schema.type !== "object") return `type ${JSON.stringify(schema.type) ?? "undefined"}`;
  return `properties ${Array.isArray(schema.properties) ? "as an array" : (JSON.stringify(schema.properties) ?? "missing")}`;
}
