import { providerKeyOf } from "./provider-identity.js";
import { isToolProvider, providerOptionsOf, readProviderId } from "./read-provider-id.js";
import { isToolContent } from "./tool-content.js";

/**
 * The provider instances a tool's return value holds: the value itself, or the providers among the
 * elements of an array, `Set`, `Map` (its values) or other re-iterable collection, in order and each
 * provider identity once (see {@link newestOfEachIdentity}).
 *
 * Not walked, on purpose: fields of plain objects and of providers (a provider method that returns
 * providers is how nesting happens, and walking object graphs would expose whatever a domain object
 * happens to reference), and one-shot iterators such as generators (walking would consume them).
 * In a `ToolContent` result only the values given beside the parts are searched, never the media bytes.
 */
export function extractProviders(value: unknown): object[] {
  return newestOfEachIdentity(instancesIn(value));
}

/** The distinct provider instances of a value, in order. */
function instancesIn(value: unknown): object[] {
  if (isToolContent(value)) return [...new Set(value.values.flatMap((v) => instancesIn(v)))];
  if (isToolProvider(value)) return [value];
  const elements = collectionElements(value);
  if (!elements) return [];
  const found = new Set<object>();
  for (const element of elements) if (isToolProvider(element)) found.add(element);
  return [...found];
}

/**
 * One instance per provider identity (class and typed id), the one rule for a result that holds two
 * different instances of one identity, in both binding modes: the last instance wins (the newest state,
 * as when a later result brings one) and takes the place of the first (the result's order ranks the
 * identity, for the tool budget). The earlier instance was never bound, so nothing reports it, and the
 * winner replaced an earlier instance only if an earlier result had bound one. A provider whose id cannot
 * be read is kept as it is: discovery skips it and tells the model why.
 */
function newestOfEachIdentity(providers: object[]): object[] {
  if (providers.length < 2) return providers;
  // By class object, then raw id. Two classes with one source name are two identities here (the second
  // is refused when it is bound, with a notice), not one instance replacing the other. The raw id, not
  // `providerKeyOf`: reading every identity made a result of 100 000 providers, of which the budget binds
  // 32, 20 times slower. Different raw ids (`Map` keys compare by SameValueZero: `1` is not `"1"` nor
  // `1n`, `-0` is `0`) are different identities; equal ones are checked to be the same identity.
  const places = new Map<Function, Map<unknown, number>>();
  const kept: object[] = [];
  for (const provider of providers) {
    const id = rawIdOf(provider);
    let ofClass = places.get(provider.constructor);
    if (!ofClass) places.set(provider.constructor, (ofClass = new Map()));
    const place = ofClass.get(id);
    if (place !== undefined && sameIdentity(kept[place]!, provider)) {
      kept[place] = provider;
      continue;
    }
    if (place === undefined) ofClass.set(id, kept.length);
    kept.push(provider);
  }
  return kept;
}

/** The id property's value as read (anything: it is checked when the provider is bound). */
function rawIdOf(provider: object): unknown {
  try {
    const property = providerOptionsOf(provider.constructor)!.instanceIdProperty;
    return (provider as Record<string, unknown>)[property];
  } catch {
    return provider; // reading it threw: a key no other provider has
  }
}

/** Whether two providers have one identity (false when either id is unusable: each gets its notice). */
function sameIdentity(a: object, b: object): boolean {
  try {
    return providerKeyOf(readProviderId(a).identity) === providerKeyOf(readProviderId(b).identity);
  } catch {
    return false;
  }
}

function collectionElements(value: unknown): Iterable<unknown> | undefined {
  if (Array.isArray(value) || value instanceof Set) return value;
  if (value instanceof Map) return value.values();
  if (typeof value !== "object" || value === null || typeof value === "string") return undefined;
  const iterate = (value as Partial<Iterable<unknown>>)[Symbol.iterator];
  if (typeof iterate !== "function") return undefined;
  // An iterator returns itself from [Symbol.iterator]: iterating it here would empty it.
  const iterator = iterate.call(value);
  return (iterator as unknown) === value ? undefined : { [Symbol.iterator]: () => iterator };
}
