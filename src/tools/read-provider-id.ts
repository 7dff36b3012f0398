import { getToolProviderOptions, type ResolvedToolProviderOptions } from "../../decorators/index.js";
import { sourceNameOf } from "../schema/schema-store.js";
import { InvalidToolProviderError } from "./errors.js";
import type { ProviderIdentity, ProviderIdType } from "./provider-identity.js";

// Per class: discovery asks this for every element of every tool result, and reflect-metadata is slow.
const optionsCache = new WeakMap<Function, ResolvedToolProviderOptions | null>();

/** The `@ToolProvider` options of a class (its prefix with the default applied), if it is one. */
export function providerOptionsOf(cls: Function): ResolvedToolProviderOptions | undefined {
  let options = optionsCache.get(cls);
  if (options === undefined) {
    options = withSourcePrefix(getToolProviderOptions(cls)) ?? null;
    optionsCache.set(cls, options);
  }
  return options ?? undefined;
}

/** A default prefix from the class's source name (see `prefixIsDefault`). */
function withSourcePrefix(
  options: ResolvedToolProviderOptions | undefined,
): ResolvedToolProviderOptions | undefined {
  if (!options?.prefixIsDefault) return options;
  return { ...options, prefix: sourceNameOf(options.decoratedClass).toLowerCase() };
}

/** Whether `value` is an instance of a `@ToolProvider` class (or a subclass of one). */
export function isToolProvider(value: unknown): value is object {
  return typeof value === "object" && value !== null && providerOptionsOf(value.constructor) !== undefined;
}

/**
 * What reading a live provider's id gives: its options, its id as text, and its id with its type. Not the
 * public `ProviderIdentity` (provider-binding.ts), which is plain JSON: this one holds the class's options.
 */
export interface ProviderIdRead {
  readonly options: ResolvedToolProviderOptions;
  readonly instanceId: string;
  /** `number:1` and `string:1` are different providers even though both are named with `1`. */
  readonly instanceKey: string;
  /** The provider's identity (its class's source name and typed id), as plain JSON. */
  readonly identity: ProviderIdentity;
}

/**
 * Reads a provider's id.
 *
 * @throws InvalidToolProviderError when the id is missing, `null`, `undefined`, empty, not a string,
 * finite number or bigint, or when reading it throws.
 */
export function readProviderId(instance: object): ProviderIdRead {
  const providerClass = instance.constructor;
  const options = providerOptionsOf(providerClass);
  if (!options)
    throw new InvalidToolProviderError(providerClass, "the class is not decorated with @ToolProvider");
  const property = options.instanceIdProperty;
  const id = readId(instance, property, providerClass);
  if (id === undefined || id === null) {
    throw new InvalidToolProviderError(providerClass, `its id property "${property}" is ${String(id)}`);
  }
  if (typeof id === "number" && !Number.isFinite(id)) {
    throw new InvalidToolProviderError(
      providerClass,
      `its id property "${property}" is ${id}, not a finite number`,
    );
  }
  if (typeof id !== "string" && typeof id !== "number" && typeof id !== "bigint") {
    throw new InvalidToolProviderError(
      providerClass,
      `its id property "${property}" is a ${typeof id}, not a string or number`,
    );
  }
  const instanceId = Object.is(id, -0) ? "-0" : String(id);
  if (instanceId.trim() === "") {
    throw new InvalidToolProviderError(providerClass, `its id property "${property}" is empty`);
  }
  const identity: ProviderIdentity = {
    providerClass: sourceNameOf(providerClass),
    id: typeof id === "number" ? id : instanceId,
    idType: typeof id as ProviderIdType,
  };
  return { options, instanceId, instanceKey: `${typeof id}:${instanceId}`, identity };
}

function readId(instance: object, property: string, providerClass: Function): unknown {
  try {
    return (instance as Record<string, unknown>)[property];
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new InvalidToolProviderError(providerClass, `reading its id property "${property}" threw: ${why}`);
  }
}
