import { sourceNameOf } from "../schema/schema-store.js";
import { closestNames } from "./did-you-mean.js";
import { EntityHandleError, type EntityHandleCodec, type HandleIdentity } from "./entity-handle.js";
import { providerIdentity } from "./provider-identity.js";

/**
 * Returns the live provider of a class (by source name) and id; sync or async. Ids are given as resume
 * gives them: a number id as a number, any other (a bigint too) as its text.
 */
export type ProviderResolver = (providerClass: string, id: string | number) => unknown;

/** What {@link HandleBindings.remember} did with a discovered provider. */
export interface RememberedProvider {
  readonly handle: string;
  /** The provider's id as text. */
  readonly instanceId: string;
  /** An older instance with the same identity was live before (the newest state wins, as for names). */
  readonly replaced: boolean;
  /** The same instance was already live: nothing changed. */
  readonly known: boolean;
}

/**
 * The live providers behind the handles of one run: a handle discovered in the run maps to the newest
 * instance of its identity; any other valid handle is re-bound through `resolveProvider`, whose answer
 * must be an instance of the handle's class with the handle's id.
 */
export class HandleBindings {
  private readonly live = new Map<string, object>(); // className|instanceKey → instance

  constructor(
    readonly codec: EntityHandleCodec,
    private readonly resolveProvider?: ProviderResolver,
  ) {}

  /** The live providers so far, by `className|instanceKey` (what a continued conversation re-binds). */
  liveProviders(): ReadonlyMap<string, object> {
    return new Map(this.live);
  }

  /** Records a discovered provider as the live instance of its handle. */
  remember(instance: object): RememberedProvider {
    const { instanceKey, instanceId } = providerIdentity(instance);
    const className = sourceNameOf(instance.constructor);
    const key = `${className}|${instanceKey}`;
    const previous = this.live.get(key);
    this.live.set(key, instance);
    return {
      handle: this.codec.mint({ className, instanceKey }),
      instanceId,
      replaced: previous !== undefined && previous !== instance,
      known: previous === instance,
    };
  }

  /**
   * Why `handle` cannot be used with a tool of `providerClass` (malformed, not signed with this key,
   * another class's), with the closest handles of this run as suggestions; `undefined` when it can.
   */
  problem(handle: unknown, providerClass: Function): string | undefined {
    const reading = this.codec.read(handle);
    const className = sourceNameOf(providerClass);
    if (!reading.ok) return `${reading.message}${this.suggestion(String(handle), className)}`;
    if (reading.className === className) return undefined;
    return (
      `The handle "${reading.handle}" is of class ${reading.className}, and this tool takes handles of class ` +
      `${className}. Call a tool of ${reading.className} with it, or pass a handle of class ${className}`
    );
  }

  /**
   * The live provider a handle names, for a tool of `providerClass`.
   *
   * @throws EntityHandleError when the handle is refused (see {@link problem}) or no provider can be found.
   */
  async bind(handle: unknown, providerClass: Function): Promise<object> {
    const reading = this.codec.read(handle);
    const problem = this.problem(handle, providerClass);
    if (problem !== undefined)
      throw new EntityHandleError(String(handle), reading.ok ? "wrong-class" : reading.problem, problem);
    if (!reading.ok) throw new EntityHandleError(String(handle), reading.problem, reading.message);
    const live = this.live.get(`${reading.className}|${reading.instanceKey}`);
    if (live) return live;
    const found = await this.resolve(reading, providerClass);
    this.live.set(`${reading.className}|${reading.instanceKey}`, found);
    return found;
  }

  private async resolve(
    reading: HandleIdentity & { readonly handle: string },
    providerClass: Function,
  ): Promise<object> {
    const unresolved = (why: string) =>
      new EntityHandleError(
        reading.handle,
        "unresolved",
        `The handle "${reading.handle}" is valid, but ${reading.className} ${JSON.stringify(reading.id)} ` +
          `is not available: ${why}. Use a handle from a tool result of this run${this.suggestion(reading.handle, reading.className)}`,
      );
    if (!this.resolveProvider)
      throw unresolved("it was not found in this run and no resolveProvider was given");
    let found: unknown;
    try {
      found = await this.resolveProvider(reading.className, reading.id);
    } catch (error) {
      throw unresolved(`resolveProvider threw: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (typeof found !== "object" || found === null) throw unresolved("resolveProvider returned nothing");
    if (!(found instanceof providerClass))
      throw unresolved(
        `resolveProvider returned an object of class ${found.constructor?.name ?? "(none)"}, not of class ${reading.className}`,
      );
    let foundKey: string;
    try {
      foundKey = providerIdentity(found).instanceKey;
    } catch (error) {
      throw unresolved(
        `resolveProvider returned an object without a usable id (${(error as Error).message})`,
      );
    }
    if (foundKey !== reading.instanceKey)
      throw unresolved(
        `resolveProvider returned the one with id ${describeKey(foundKey)}, not ${describeKey(reading.instanceKey)}`,
      );
    return found;
  }

  /** ` Did you mean …?` over this run's handles of one class, or nothing. */
  private suggestion(wanted: string, className: string): string {
    const candidates: string[] = [];
    for (const key of this.live.keys()) {
      const cut = key.indexOf("|");
      if (key.slice(0, cut) === className)
        candidates.push(this.codec.mint({ className, instanceKey: key.slice(cut + 1) }));
    }
    const close = closestNames(wanted, candidates);
    return close.length > 0 ? ` (did you mean ${close.map((h) => `"${h}"`).join(" or ")}?)` : "";
  }
}

/** `number:1` → `1`, `string:1` → `"1"`, `bigint:1` → `1n`. */
function describeKey(instanceKey: string): string {
  const cut = instanceKey.indexOf(":");
  const type = instanceKey.slice(0, cut);
  const text = instanceKey.slice(cut + 1);
  return type === "string" ? JSON.stringify(text) : type === "bigint" ? `${text}n` : text;
}
