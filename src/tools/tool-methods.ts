import {
  DecoratorMisuseError,
  getLlmTools,
  getToolClasses,
  getToolParamDescriptions,
  getToolProviderOptions,
  type LlmToolMetadata,
} from "../../decorators/index.js";
import type { InputType } from "../schema/generated-schemas.js";
import { findToolSchema, keepsSourceName, schemaCommand } from "../schema/schema-store.js";
import { StoreDerivedCache } from "../schema/store-derived-cache.js";
import { MissingToolSchemaError, StaleToolSchemaError } from "./errors.js";
import { checkExplicitSchema, explicitParameters } from "./explicit-schema.js";
import { forwardsArguments, ownRestParameter, parameterNames } from "./parameter-names.js";
import type { AnyTool, ToolInputSchema } from "./tool.js";

/** An `@LlmTool` method with its input schema and parameter order resolved, ready to bind. */
export interface ToolMethod {
  readonly metadata: LlmToolMetadata;
  readonly inputSchema: ToolInputSchema;
  /** Parameter names in declaration order. */
  readonly parameters: readonly string[];
  /** Parameters converted to their declared types before the call. */
  readonly types?: Readonly<Record<string, InputType>>;
}

const EMPTY_INPUT: ToolInputSchema = { type: "object", properties: {}, additionalProperties: false };
// Per class: binding the thousandth instance of a class must not redo metadata and schema lookups; a
// schema module registered since is read again.
const cache = new StoreDerivedCache<Function, readonly ToolMethod[]>();

/**
 * The tool methods of a class. The input schema is, in order of precedence: `@LlmTool({ parameters })`,
 * the generated schema, or an empty object schema for a method with no parameters.
 *
 * @throws MissingToolSchemaError for a method with parameters and no schema.
 */
export function toolMethodsOf(cls: Function): readonly ToolMethod[] {
  return cache.get(cls, () => getLlmTools(cls).map((metadata) => resolveMethod(cls, metadata)));
}

/** The method a decorated method's tool (bound, or a handle tool) calls; `undefined` for any other tool. */
export function toolMethodOf(tool: AnyTool): ToolMethod | undefined {
  const target = tool.origin ?? tool.handleTarget;
  return (
    target && toolMethodsOf(target.providerClass).find((m) => m.metadata.methodName === target.methodName)
  );
}

/**
 * Resolves the tools of every class a run can reach, so a missing or stale schema is found before it
 * starts rather than after some of its tools have already run. Its own tools were resolved when they
 * were bound (`withTools`); with discovery on, any `@ToolProvider` class defined so far may be
 * discovered, so those are resolved too. A tool class the run cannot reach (a plain tool group it was
 * not given) is not its concern: the contract's "when the tool is bound". Explicit schemas of all of
 * them are checked against JSON Schema here, the validator being loaded.
 *
 * @throws MissingToolSchemaError, StaleToolSchemaError or DecoratorMisuseError for the first class with a
 *   problem.
 */
export function checkToolSchemas(reach: {
  readonly discovery: boolean;
  readonly tools: readonly AnyTool[];
}): void {
  for (const tool of reach.tools) {
    const method = toolMethodOf(tool);
    if (method) checkExplicitSchema(method.metadata);
  }
  if (!reach.discovery) return;
  for (const cls of getToolClasses())
    if (getToolProviderOptions(cls))
      for (const method of toolMethodsOf(cls)) checkExplicitSchema(method.metadata);
}

function resolveMethod(cls: Function, metadata: LlmToolMetadata): ToolMethod {
  const prototype = metadata.declaringClass.prototype as Record<string, Function>;
  const method = prototype[metadata.methodName] as Function;
  refuseRestParameter(metadata, method);
  if (metadata.parameters) {
    const parameters = explicitParameters(metadata, method);
    return {
      metadata,
      parameters,
      inputSchema: withParamDescriptions(metadata, parameters, metadata.parameters),
    };
  }
  const generated = findToolSchema(metadata.declaringClass, metadata.methodName);
  if (generated) {
    // A wrapper's `(...args)` says nothing of the method's parameters: the generated list stands.
    if (!forwardsArguments(method, metadata.methodName))
      checkFresh(metadata, parameterNames(method), generated.parameters);
    return {
      metadata,
      parameters: generated.parameters,
      inputSchema: generated.inputSchema,
      types: generated.types,
    };
  }
  if (parameterNames(method).length === 0) return { metadata, parameters: [], inputSchema: EMPTY_INPUT };
  throw new MissingToolSchemaError(cls.name, metadata.methodName, schemaCommand());
}

/**
 * The one rule for rest parameters, whatever gives the schema (explicit, generated, none): a tool's input
 * is one object keyed by parameter names, so a method's own `...rest` would get the array inside another
 * array, or `undefined`. A wrapper's `(...args)` (another decorator's) forwards the method's arguments and
 * is not refused (see `forwardsArguments`). The schema CLI refuses the same parameter (G12).
 *
 * @throws DecoratorMisuseError naming the class, the method and the parameter.
 */
function refuseRestParameter(metadata: LlmToolMetadata, method: Function): void {
  const rest = ownRestParameter(method, metadata.methodName);
  if (rest === undefined) return;
  throw new DecoratorMisuseError(
    `@LlmTool on ${metadata.declaringClass.name}.${metadata.methodName}: parameter "${rest}" is a rest parameter: ` +
      `a tool's input is one object keyed by the method's parameter names; take an array instead (${rest}: T[])`,
  );
}

/**
 * A generated entry must still describe the method: the same parameters, in the same order. Under a
 * minifier (the class no longer has its source name) parameter names are mangled, so only their count
 * is compared there.
 *
 * @throws StaleToolSchemaError naming the method and the command to run.
 */
function checkFresh(
  metadata: LlmToolMetadata,
  declared: readonly (string | undefined)[],
  generated: readonly string[],
): void {
  const sameNames =
    !keepsSourceName(metadata.declaringClass) ||
    declared.every((name, i) => name === undefined || name === generated[i]);
  if (declared.length === generated.length && sameNames) return;
  throw new StaleToolSchemaError(
    `${metadata.declaringClass.name}.${metadata.methodName}`,
    declared.map((n) => n ?? "?"),
    generated,
    schemaCommand(),
  );
}

/** `@ToolParam` text fills in descriptions an explicit schema left out. */
function withParamDescriptions(
  metadata: LlmToolMetadata,
  parameters: readonly string[],
  schema: ToolInputSchema,
): ToolInputSchema {
  const descriptions = getToolParamDescriptions(
    metadata.declaringClass.prototype as object,
    metadata.methodName,
  );
  const properties: Record<string, object> = { ...schema.properties };
  parameters.forEach((name, index) => {
    const description = descriptions[index];
    const property = properties[name];
    // An explicit schema's `description: undefined` is left out too, as everywhere a user writes a field.
    if (description && property && (property as { description?: unknown }).description === undefined)
      properties[name] = { ...property, description };
  });
  return { ...schema, properties };
}
