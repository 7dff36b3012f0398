import { instanceKeyOf } from "./provider-identity.js";
import { readProviderId } from "./read-provider-id.js";
import type { AnyTool, ToolOrigin } from "./tool.js";
import { toolMethodsOf, type ToolMethod } from "./tool-methods.js";
import { toDeclaredType } from "./typed-input.js";
import { unionInputCheck } from "./union-input.js";
import { plainToolName, providerToolNames } from "./tool-names.js";

/**
 * The tools of a `@ToolProvider` instance, named `<prefix>_<id>_<method>` and bound to that live
 * instance: calls run its methods with its state and its (excluded) dependencies.
 *
 * @throws InvalidToolProviderError when the instance has no usable id.
 */
export function bindProviderTools(instance: object): AnyTool[] {
  const { options, identity } = readProviderId(instance);
  const methods = toolMethodsOf(instance.constructor);
  const instanceId = String(identity.id);
  const names = providerToolNames(
    options.prefix,
    instanceId,
    methods.map((m) => m.metadata.name),
  );
  // The deprecated fields stay set for users who read them; the library reads `identity` only.
  const ids = { identity, instanceId, instanceKey: instanceKeyOf(identity) };
  return methods.map((method, i) => bindMethod(instance, method, names[i]!, ids));
}

/** The `@LlmTool` methods of an ordinary object (a tool group), named by `name` or the method name. */
export function bindObjectTools(instance: object): AnyTool[] {
  return toolMethodsOf(instance.constructor).map((method) =>
    bindMethod(instance, method, plainToolName(method.metadata.name), {}),
  );
}

function bindMethod(
  instance: object,
  method: ToolMethod,
  name: string,
  id: Pick<ToolOrigin, "identity" | "instanceId" | "instanceKey">,
): AnyTool {
  const { metadata } = method;
  const origin: ToolOrigin = {
    instance,
    providerClass: instance.constructor,
    ...id,
    methodName: metadata.methodName,
  };
  const checkInput = unionInputCheck(method.types);
  return {
    name,
    description: metadata.description,
    inputSchema: method.inputSchema,
    origin,
    ...(metadata.needsApproval ? { needsApproval: true } : {}),
    ...(checkInput ? { checkInput } : {}),
    execute: (input: never) => callToolMethod(instance, method, input as Record<string, unknown>),
  };
}

/**
 * Calls a tool method of `instance` with a validated input. Positions follow the declared parameter
 * order, each value converted to its declared type; an absent optional parameter is passed as undefined
 * so its default applies; properties that are not parameters (a handle) are not passed.
 */
export function callToolMethod(
  instance: object,
  method: ToolMethod,
  fields: Readonly<Record<string, unknown>>,
): unknown {
  const { metadata, parameters, types } = method;
  const args = parameters.map((p) =>
    Object.hasOwn(fields, p) ? toDeclaredType(fields[p], types?.[p]) : undefined,
  );
  const fn = (instance as Record<string, Function>)[metadata.methodName] as Function;
  return fn.apply(instance, args) as unknown;
}
