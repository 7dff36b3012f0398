import { getToolProviderOptions, type ResolvedToolProviderOptions } from "../../decorators/index.js";
import { InvalidToolProviderError } from "./errors.js";

// Per class: discovery asks this for every element of every tool result, and reflect-metadata is slow.
const optionsCache = new WeakMap<Function, ResolvedToolProviderOptions | null>();

function providerOptionsOf(cls: Function): ResolvedToolProviderOptions | undefined {
  let options = optionsCache.get(cls);
  if (options === undefined) {
    options = getToolProviderOptions(cls) ?? null;
    optionsCache.set(cls, options);
  }
  return options ?? undefined;
}

/** Whether `value` is an instance of a `@ToolProvider` class (or a subclass of one). */
export function isToolProvider(value: unknown): value is object {
  return typeof value === "object" && value !== null && providerOptionsOf(value.constructor) !== undefined;
}

/** A provider's options and its id as text. */
export interface ProviderIdentity {
  readonly options: ResolvedToolProviderOptions;
  readonly instanceId: string;
}

/**
 * Reads a provider's id.
 *
 * @throws InvalidToolProviderError when the id is missing, `null`, `undefined`, empty, or not a string,
 * number or bigint.
 */
export function providerIdentity(instance: object): ProviderIdentity {
  const providerClass = instance.constructor;
  const options = providerOptionsOf(providerClass);
  if (!options)
    throw new InvalidToolProviderError(providerClass, "the class is not decorated with @ToolProvider");
  const id: unknown = (instance as Record<string, unknown>)[options.instanceIdProperty];
  if (id === undefined || id === null) {
    throw new InvalidToolProviderError(
      providerClass,
      `its id property "${options.instanceIdProperty}" is ${String(id)}`,
    );
  }
  if (typeof id !== "string" && typeof id !== "number" && typeof id !== "bigint") {
    throw new InvalidToolProviderError(
      providerClass,
      `its id property "${options.instanceIdProperty}" is a ${typeof id}, not a string or number`,
    );
  }
  const instanceId = String(id);
  if (instanceId.trim() === "") {
    throw new InvalidToolProviderError(
      providerClass,
      `its id property "${options.instanceIdProperty}" is empty`,
    );
  }
  return { options, instanceId };
}
