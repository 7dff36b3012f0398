// The 2026-07-28 tool surface: the same list for every caller and every call, because that revision's list
// endpoints must not vary per connection. Providers a call finds are reached through entity handles, with
// the handle rule, handle tools and handles-mode discovery the runner uses (src/tools, src/strategies);
// each call gets its own discovery, so nothing about a caller is kept between calls, and a handle from
// an earlier call is re-bound through resolveProvider.
import { HandleDiscovery } from "../strategies/handle-discovery.js";
import type { ProviderResolver } from "../tools/entity-handle-bindings.js";
import { EntityHandleCodec } from "../tools/entity-handle.js";
import type { KeyRing } from "../tools/signing-key.js";
import { SourceNameClaims } from "../tools/same-named-classes.js";
import type { AnyTool } from "../tools/tool.js";

/** What the handle surface needs: the provider classes, the key, and how to find a provider again. */
export interface HandleSurfaceOptions {
  /** The classes whose handle tools are listed, in this order. */
  readonly classes: readonly Function[];
  /** The server's keys (its `handleKey`, checked), else the process's random key. */
  readonly keys?: KeyRing;
  readonly resolveProvider?: ProviderResolver;
  /** The names of the plain tools: a handle tool never takes one (read as it is by every call). */
  readonly takenNames: ReadonlySet<string>;
}

/** The handle tools of one server configuration, and a fresh handles-mode discovery for each call. */
export class HandleSurface {
  private readonly codec: EntityHandleCodec;

  /** @throws InvalidToolProviderError when two of the classes have the same source name. */
  constructor(private readonly options: HandleSurfaceOptions) {
    SourceNameClaims.claimAll(options.classes);
    // Without a handleKey, the codec signs with the process's one random key, so a handle minted while
    // serving one request is accepted while serving the next (a fresh server each).
    this.codec = new EntityHandleCodec(options.keys);
  }

  /**
   * One call's discovery: its handle tools (the listed ones, same names and definitions every time) and
   * the strategy that makes the handles of the providers the call returns and names them in its result.
   */
  forCall(): { readonly tools: readonly AnyTool[]; readonly discovery: HandleDiscovery } {
    const discovery = new HandleDiscovery({
      codec: this.codec,
      resolveProvider: this.options.resolveProvider,
      classes: this.options.classes,
      takenNames: this.options.takenNames,
    });
    return { tools: discovery.initialTools(), discovery };
  }
}
