import { ServerFailure } from "../errors/server-failure.js";
import { sourceNameOf } from "../schema/schema-store.js";
import { closestNames } from "./did-you-mean.js";
import { echoed } from "./echoed-text.js";
import { EntityHandleError, type EntityHandleCodec } from "./entity-handle.js";
import { readProviderId } from "./read-provider-id.js";
import { SourceNameClaims } from "./same-named-classes.js";
import {
  identityOf,
  providerKeyOf,
  type HandleIdentity,
  type ProviderIdentity,
} from "./provider-identity.js";
import {
  checkResolvedProvider,
  nativeIdOf,
  ProviderMismatchError,
  type ProviderResolver,
} from "./provider-binding.js";

export type { ProviderResolver } from "./provider-binding.js";

/** What {@link HandleBindings.remember} did with a discovered provider. */
export interface RememberedProvider {
  /** The provider's handle, as the model reads it. */
  readonly handle: string;
  /** The provider's identity (the handle names it). */
  readonly identity: ProviderIdentity;
  /**
   * The provider's id as text.
   *
   * @deprecated Read `identity.id`.
   */
  readonly instanceId: string;
  /** An older instance with the same identity was live before (the newest state wins, as for names). */
  readonly replaced: boolean;
  /** The same instance was already live: nothing changed. */
  readonly known: boolean;
  /**
   * `remember`'s `first` answered false: another instance of this identity came earlier in the same tool
   * result, and it stays live (this one was not recorded).
   */
  readonly repeated?: boolean;
}

/**
 * The live providers behind the handles of one run: a handle discovered in the run maps to the newest
 * instance of its identity; any other valid handle is re-bound through `resolveProvider`, whose answer
 * must be an instance of the handle's class with the handle's id.
 */
export class HandleBindings {
  // providerKeyOf(identity) → the provider, with its identity (for suggestions)
  private readonly live = new Map<
    string,
    { readonly identity: ProviderIdentity; readonly instance: object }
  >();

  constructor(
    /** Mints and reads the handles (with the signing key). */
    readonly codec: EntityHandleCodec,
    private readonly resolveProvider?: ProviderResolver,
    /** Which class holds each source name in this run (two classes named `Customer` are refused). */
    readonly claims = new SourceNameClaims(),
  ) {}

  /** The live providers so far, by `providerKeyOf(identity)` (what a continued conversation re-binds). */
  liveProviders(): ReadonlyMap<string, object> {
    return new Map([...this.live].map(([key, { instance }]) => [key, instance]));
  }

  /**
   * Records a discovered provider as the live instance of its handle. `first`, when given, is asked with
   * the provider's identity (its id read and its class's name claimed) whether it is the first of that
   * identity in its tool result: when it says no, the provider is not recorded and `repeated` is true
   * (within one result the first instance wins; across results the newest does).
   *
   * @throws InvalidToolProviderError when the provider has no usable id, or another class of this run
   * has its class's source name.
   */
  remember(instance: object, first?: (identity: ProviderIdentity) => boolean): RememberedProvider {
    const { identity } = readProviderId(instance);
    this.claims.claim(instance.constructor);
    const key = providerKeyOf(identity);
    const previous = this.live.get(key)?.instance;
    const repeated = first ? !first(identity) : false;
    if (!repeated) this.live.set(key, { identity, instance });
    return {
      handle: this.codec.mint(identity),
      identity,
      instanceId: String(identity.id),
      replaced: !repeated && previous !== undefined && previous !== instance,
      known: !repeated && previous === instance,
      ...(repeated ? { repeated } : {}),
    };
  }

  /**
   * Why `handle` cannot be used with a tool of `providerClass` (malformed, not signed with this key,
   * another class's), with the closest handles of this run as suggestions; `undefined` when it can.
   */
  problem(handle: unknown, providerClass: Function): string | undefined {
    const reading = this.codec.read(handle);
    let className: string;
    try {
      className = this.claims.claim(providerClass);
    } catch (error) {
      return (error as Error).message;
    }
    if (!reading.ok) return `${reading.message}${this.suggestion(String(handle), className)}`;
    if (reading.providerClass === className) return undefined;
    return (
      `The handle "${echoed(reading.handle)}" is of class ${reading.providerClass}, and this tool takes handles of class ` +
      `${className}. Call a tool of ${reading.providerClass} with it, or pass a handle of class ${className}`
    );
  }

  /** The (class, typed id) a valid handle of `providerClass` names; `undefined` for any other handle. */
  identify(handle: unknown, providerClass: Function): HandleIdentity | undefined {
    const reading = this.codec.read(handle);
    if (!reading.ok || reading.providerClass !== sourceNameOf(providerClass)) return undefined;
    const { ok: _ok, handle: _handle, ...identity } = reading;
    return identity;
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
    const identity = identityOf(reading.providerClass, nativeIdOf(reading));
    const key = providerKeyOf(identity);
    const live = this.live.get(key);
    if (live) return live.instance;
    const found = await this.resolve(reading, providerClass);
    this.live.set(key, { identity, instance: found });
    return found;
  }

  private async resolve(
    reading: HandleIdentity & { readonly handle: string },
    providerClass: Function,
  ): Promise<object> {
    const valid = `The handle "${echoed(reading.handle)}" is valid, but ${reading.providerClass} ${echoed(JSON.stringify(reading.id))}`;
    const unresolved = (why: string) =>
      new EntityHandleError(
        reading.handle,
        "unresolved",
        `${valid} is not available: ${why}. Use a handle from a tool result of this run${this.suggestion(reading.handle, reading.providerClass)}`,
      );
    if (!this.resolveProvider)
      throw unresolved("it was not found in this run and no resolveProvider was given");
    const id = nativeIdOf(reading);
    let found: unknown;
    try {
      found = await this.resolveProvider(reading.providerClass, id);
    } catch (error) {
      // The application's own code, in a run and an MCP server alike: what it threw may hold anything (a
      // database URL with its password), so the model reads only that the entity could not be loaded, and
      // observers and the run log what was thrown (`ToolFailed.cause`, through ServerFailure).
      const failure = new ServerFailure("resolveProvider", error);
      throw new EntityHandleError(
        reading.handle,
        "unresolved",
        `${valid} could not be loaded: ${failure.message}. Try the call again later, or call again the tool ` +
          "that found it and use what it returns",
        { cause: failure },
      );
    }
    if (found === undefined || found === null) throw unresolved("resolveProvider returned nothing");
    try {
      checkResolvedProvider(found, reading);
    } catch (error) {
      if (error instanceof ProviderMismatchError) throw unresolved(`resolveProvider ${error.reason}`);
      throw error;
    }
    // Same source name is not same class: another module's `Customer` must not run this tool's method.
    if (!(found instanceof providerClass))
      throw unresolved(`resolveProvider returned another class that is also named ${reading.providerClass}`);
    return found as object;
  }

  /** ` Did you mean …?` over this run's handles of one class, or nothing. */
  private suggestion(wanted: string, className: string): string {
    const candidates: string[] = [];
    for (const { identity } of this.live.values())
      if (identity.providerClass === className) candidates.push(this.codec.mint(identity));
    const close = closestNames(wanted, candidates);
    return close.length > 0 ? ` (did you mean ${close.map((h) => `"${h}"`).join(" or ")}?)` : "";
  }
}
