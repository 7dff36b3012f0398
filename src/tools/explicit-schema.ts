// An explicit `@LlmTool({ parameters })` schema is the application's own word for what the model sends, and
// the input reaches the method by parameter name. A schema that cannot describe the method (not valid JSON
// Schema, a property no parameter takes, a required field it does not describe) offered the model a tool
// that failed the run at its first call, dropped what the model sent, or could never be called; so it is
// refused before any model call, naming the method: when the tool is bound, or for what needs the
// validator, when the run starts.
import { DecoratorMisuseError, type LlmToolMetadata } from "../../decorators/index.js";
import { metaSchemaProblem } from "../schema/validate.js";
import { forwardsArguments, parameterNames, parameterNamesMangled } from "./parameter-names.js";

/**
 * The parameter order of a method with an explicit schema: its declared names; or the schema's properties
 * in their order when the names cannot be read (a minified bundle, a wrapper another decorator made that
 * forwards its arguments), which is why the properties must be the parameters in order, those it leaves
 * out last.
 *
 * @throws DecoratorMisuseError when the schema is not an object schema, when a parameter has no plain
 *   name (a destructuring pattern, minified or not; a rest parameter is refused before, for every schema:
 *   see tool-methods.ts), when a property is not a parameter of the method or the properties are out of the
 *   parameters' order, or when a required field is not one of its properties.
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
  const described = Object.keys(properties);
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const undescribed = required.find((key) => typeof key !== "string" || !described.includes(key));
  if (undescribed !== undefined) {
    throw new DecoratorMisuseError(
      `${label}: parameters requires ${JSON.stringify(undescribed)}, which its properties do not describe: ` +
        "no call the model makes would be valid",
    );
  }
  // A wrapper's `(...args)` says nothing of the method's parameters: they are the properties in order.
  if (forwardsArguments(method, metadata.methodName)) return described;
  const declared = parameterNames(method);
  // A pattern shows in the source mangled or not (`{sku:e,qty:t}`), so it is refused in a minified bundle
  // too: there its property would be passed in its place. (A rest parameter was refused before.)
  const unnamed = declared.indexOf(undefined);
  if (unnamed !== -1) {
    throw new DecoratorMisuseError(
      `${label}: parameter #${unnamed + 1} has no plain name (a destructuring pattern); ` +
        "the model's input reaches a method by parameter name: give it a name and describe it in parameters under that name",
    );
  }
  // Minified, the properties are the parameters in order: the rules below hold them to it where names are read.
  if (parameterNamesMangled) return described;
  const names = declared as string[];
  const stray = described.find((key) => !names.includes(key));
  if (stray !== undefined) {
    throw new DecoratorMisuseError(
      `${label}: parameters describes "${stray}", which is not a parameter of the method ` +
        `(it takes ${names.length > 0 ? names.join(", ") : "none"}): what the model sends as "${stray}" would never reach it`,
    );
  }
  if (described.some((key, i) => key !== names[i])) {
    throw new DecoratorMisuseError(
      `${label}: parameters lists ${described.join(", ")}, which must be the method's parameters in their order ` +
        `(it takes ${names.join(", ")}; any it leaves out last): a minified bundle, its names mangled, passes them by position`,
    );
  }
  return names;
}

const valid = new WeakSet<object>();

/**
 * Checks an explicit schema against JSON Schema's meta-schema, once per schema. It needs the validator,
 * which a run loads with `import()` before it starts (in a bundle, binding cannot `require` it): so a run
 * checks its tools' explicit schemas before its first model call, not binding.
 *
 * @throws DecoratorMisuseError naming the class, the method and what ajv refuses.
 */
export function checkExplicitSchema(metadata: LlmToolMetadata): void {
  const schema = metadata.parameters;
  if (!schema || valid.has(schema)) return;
  const problem = metaSchemaProblem(schema);
  if (problem) {
    throw new DecoratorMisuseError(
      `@LlmTool on ${metadata.declaringClass.name}.${metadata.methodName}: parameters is not a valid JSON Schema (${problem})`,
    );
  }
  valid.add(schema);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeShape(schema: Record<string, unknown>): string {
  if (schema.type !== "object") return `type ${JSON.stringify(schema.type) ?? "undefined"}`;
  return `properties ${Array.isArray(schema.properties) ? "as an array" : (JSON.stringify(schema.properties) ?? "missing")}`;
}
