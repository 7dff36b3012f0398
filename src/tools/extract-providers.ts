import { providerKeyOf, type ProviderIdentity, type ProviderIdType } from "./provider-identity.js";
import { InvalidToolProviderError } from "./errors.js";
import { isToolProvider, readProviderId } from "./read-provider-id.js";
import { isToolContent } from "./tool-content.js";

/**
 * The provider instances a tool's return value holds: the value itself, or the providers among the
 * elements of an array, `Set`, `Map` (its values) or other re-iterable collection, in order and each once.
 * Two different instances with one id are both here: binding keeps the first (see docs/discovery-and-budgets.md).
 *
 * Not walked, on purpose: fields of plain objects and of providers (a provider method that returns
 * providers is how nesting happens, and walking object graphs would expose whatever a domain object
 * happens to reference), and one-shot iterators such as generators (walking would consume them).
 * In a `ToolContent` result only the values given beside the parts are searched, never the media bytes.
 */
export function extractProviders(value: unknown): object[] {
  if (isToolContent(value)) return [...new Set(value.values.flatMap((v) => extractProviders(v)))];
  if (isToolProvider(value)) return [value];
  const elements = collectionElements(value);
  if (!elements) return [];
  const found = new Set<object>();
  for (const element of elements) if (isToolProvider(element)) found.add(element);
  return [...found];
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

/**
 * The identities bound from one tool result, for the one rule of a result that holds two different
 * instances of one identity (class and typed id): the first is bound, a later one is skipped (no tools,
 * no handle, no event, no budget). The result's order ranks its entities, as the budget does, and within
 * one result no instance is newer than another. Across results the newest state wins, as before.
 * Fed the identities binding reads anyway, so its cost is that of the providers bound, not of the result.
 */
export class FirstOfEachIdentity {
  // By class name, id type, then id: what `providerKeyOf` tells apart, without making a key per provider
  // (a result bound whole, with no budget, has 100 000 of them). Made at the first identity: discovery
  // asks for one at every tool call, and most results hold no provider.
  private bound: Map<string, Record<ProviderIdType, Set<string | number>>> | undefined;
  private repeated: Map<string, ProviderIdentity> | undefined;

  /** Whether `identity` is the first of its kind in this result (then it is recorded as bound). */
  first(identity: ProviderIdentity): boolean {
    if (this.record(identity)) return true;
    (this.repeated ??= new Map()).set(providerKeyOf(identity), identity);
    return false;
  }

  /**
   * How many entities `providers` from `start` on hold that are not already recorded: the ones past the
   * budget, which get no tools. A later instance of an identity (bound, or past the budget itself) is not
   * an entity of its own, so their ids are read (not their tools), and a provider whose id cannot be read
   * counts as one. Not recorded as repeats: the model is told about repeats of what was bound.
   */
  countUnrecorded(providers: readonly object[], start: number): number {
    let count = 0;
    for (let i = start; i < providers.length; i++) {
      let identity: ProviderIdentity;
      try {
        identity = readProviderId(providers[i]!).identity;
      } catch (error) {
        if (!(error instanceof InvalidToolProviderError)) throw error;
        count++;
        continue;
      }
      if (this.record(identity)) count++;
    }
    return count;
  }

  private record(identity: ProviderIdentity): boolean {
    this.bound ??= new Map();
    let ofClass = this.bound.get(identity.providerClass);
    if (!ofClass) {
      ofClass = { string: new Set(), number: new Set(), bigint: new Set() };
      this.bound.set(identity.providerClass, ofClass);
    }
    const ids = ofClass[identity.idType];
    const before = ids.size;
    return ids.add(identity.id).size > before; // one hash lookup, not has() then add()
  }

  /**
   * What the model is told when the result held an identity more than once: it reads each instance in
   * the result (their states may differ), so it learns which one its tools (`"tools"`) or handle work on.
   */
  notice(reachedBy: "tools" | "handle"): string | undefined {
    if (!this.repeated) return undefined;
    const names = [...this.repeated.values()].map((i) => `${i.providerClass} ${String(i.id)}`);
    const one = names.length === 1;
    const whose = one ? "its" : "each one's";
    const verb = reachedBy === "tools" ? "work" : "works";
    return (
      `${names.join(", ")} ${one ? "is" : "are each"} in this result more than once: ` +
      `${whose} ${reachedBy} ${verb} on its first instance in the result, not on the later ones.`
    );
  }
}
