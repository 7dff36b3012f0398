import { sourceNameOf } from "../schema/schema-store.js";
import { callToolMethod } from "./bind-tools.js";
import { InvalidToolProviderError } from "./errors.js";
import { providerOptionsOf } from "./read-provider-id.js";
import type { HandleIdentity } from "./provider-identity.js";
import type { AnyTool, ToolInputSchema } from "./tool.js";
import { toolMethodsOf, type ToolMethod } from "./tool-methods.js";
import { handleToolName } from "./tool-names.js";
import { unionInputCheck } from "./union-input.js";

/** The input property that carries the handle, unless the method has a parameter of that name. */
export const HANDLE_PARAMETER = "handle";

/** How handle tools reach providers: why a handle is refused, and the live provider it names. */
export interface HandleResolution {
  /** Why `handle` cannot be used with a tool of `providerClass`, or `undefined` when it can. */
  problem(handle: unknown, providerClass: Function): string | undefined;
  /** The (class, typed id) a valid `handle` of `providerClass` names, for approval rules and events. */
  identify?(handle: unknown, providerClass: Function): HandleIdentity | undefined;
  /** The live provider `handle` names; throws (an error the model reads) when there is none. */
  bind(handle: unknown, providerClass: Function): object | Promise<object>;
}

/**
 * The handle property of a method with these parameters: `handle`, or, when the method has a parameter
 * of that name, `_handle` (another `_` in front until the name is free).
 */
export function handleParameterOf(parameters: readonly string[]): string {
  let name = HANDLE_PARAMETER;
  while (parameters.includes(name)) name = `_${name}`;
  return name;
}

/**
 * The handle tools of a `@ToolProvider` class: one per `@LlmTool` method, named `<prefix>_<method>`, whose
 * input is the method's own schema plus one required handle property (see {@link handleParameterOf}). A
 * call checks the handle first (a refused handle is invalid input: nothing runs), then runs the method on
 * the provider `resolution.bind` returns, with the method's typed input.
 *
 * @throws InvalidToolProviderError when the class is not a `@ToolProvider`.
 */
export function handleToolsOf(providerClass: Function, resolution: HandleResolution): AnyTool[] {
  const options = providerOptionsOf(providerClass);
  if (!options)
    throw new InvalidToolProviderError(providerClass, "the class is not decorated with @ToolProvider");
  return toolMethodsOf(providerClass).map((method) =>
    handleTool(providerClass, options.prefix, method, resolution),
  );
}

function handleTool(
  providerClass: Function,
  prefix: string,
  method: ToolMethod,
  resolution: HandleResolution,
): AnyTool {
  const { metadata } = method;
  const parameter = handleParameterOf(method.parameters);
  const className = sourceNameOf(providerClass);
  const unionCheck = unionInputCheck(method.types);
  return {
    name: handleToolName(prefix, metadata.name),
    description: `${metadata.description}\n\nRuns on one ${className}: pass its handle (exactly as a tool result gave it) as "${parameter}".`,
    inputSchema: withHandle(method.inputSchema, parameter, className),
    ...(metadata.needsApproval ? { needsApproval: true } : {}),
    handleTarget: {
      providerClass,
      methodName: metadata.methodName,
      parameter,
      providerOf: (input) => resolution.identify?.(input[parameter], providerClass),
    },
    checkInput: (input) => resolution.problem(input[parameter], providerClass) ?? unionCheck?.(input),
    execute: async (input: never) => {
      const fields = input as Record<string, unknown>;
      const instance = await resolution.bind(fields[parameter], providerClass);
      return callToolMethod(instance, method, fields);
    },
  };
}

/** The method's schema with the handle property first and required. */
function withHandle(schema: ToolInputSchema, parameter: string, className: string): ToolInputSchema {
  return {
    ...schema,
    properties: {
      [parameter]: { type: "string", description: `The handle of the ${className} to run this on.` },
      ...schema.properties,
    },
    required: [parameter, ...(schema.required ?? [])],
  };
}
