import { getToolProviderOptions, type ResolvedToolProviderOptions } from "../../decorators/index.js";
import { declaredNameOf, sourceNameOf } from "../schema/schema-store.js";
import { StoreDerivedCache } from "../schema/store-derived-cache.js";
import { InvalidToolProviderError } from "./errors.js";
import { identityOf, type ProviderIdentity } from "./provider-identity.js";

// Per class: discovery asks this for every element of every tool result, and reflect-metadata is slow. The
// default prefix is the class's registered name: a schema module registered since is read again.
const optionsCache = new StoreDerivedCache<Function, ResolvedToolProviderOptions | undefined>();

/** The `@ToolProvider` options of a class (its prefix with the default applied), if it is one. */
export function providerOptionsOf(cls: Function): ResolvedToolProviderOptions | undefined {
  return optionsCache.get(cls, () => withSourcePrefix(getToolProviderOptions(cls)));
}

/** A default prefix from the class's source name (see `prefixIsDefault`). */
function withSourcePrefix(
  options: ResolvedToolProviderOptions | undefined,
): ResolvedToolProviderOptions | undefined {
  if (!options?.prefixIsDefault) return options;
  return { ...options, prefix: declaredNameOf(options.decoratedClass).toLowerCase() };
}

/** Whether `value` is an instance of a `@ToolProvider` class (or a subclass of one). */
export function isToolProvider(value: unknown): value is object {
  return typeof value === "object" && value !== null && providerOptionsOf(value.constructor) !== undefined;
}

/** What reading a live provider's id gives: its class's options, and its identity. */
export interface ProviderIdRead {
  readonly options: ResolvedToolProviderOptions;
  /** The provider's identity (its class's name and typed id), as plain JSON: see `identityOf`. */
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
  if (String(id).trim() === "") {
    throw new InvalidToolProviderError(providerClass, `its id property "${property}" is empty`);
  }
  return { options, identity: identityOf(sourceNameOf(providerClass), id) };
}

function readId(instance: object, property: string, providerClass: Function): unknown {
  try {
    return (instance as Record<string, unknown>)[property];
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new InvalidToolProviderError(providerClass, `reading its id property "${property}" threw: ${why}`);
  }
}
