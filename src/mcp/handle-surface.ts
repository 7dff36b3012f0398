// The 2026-07-28 tool surface: the same list for every caller and every call, because that revision's list
// endpoints must not vary per connection. Providers a call finds are reached through entity handles (the
// handle rule and handle tools of src/tools), re-bound on each call through resolveProvider: nothing about
// a caller is kept between calls.
import { sourceNameOf } from "../schema/schema-store.js";
import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "../strategies/tool-injection-strategy.js";
import { EntityHandleCodec, type HandleKey } from "../tools/entity-handle.js";
import { HandleBindings, type ProviderResolver } from "../tools/entity-handle-bindings.js";
import { extractProviders } from "../tools/extract-providers.js";
import { handleToolsOf } from "../tools/handle-tools.js";
import { providerIdentity } from "../tools/provider-identity.js";
import type { AnyTool } from "../tools/tool.js";

/** What the handle surface needs: the provider classes, the key, and how to find a provider again. */
export interface HandleSurfaceOptions {
  readonly classes: readonly Function[];
  readonly handleKey?: HandleKey;
  readonly resolveProvider?: ProviderResolver;
}

// Without a handleKey, every server of this process signs with one random key, so a handle minted while
// serving one request is accepted while serving the next (each request gets a fresh server instance).
let processCodec: EntityHandleCodec | undefined;

/** One call's handle tools, and the strategy that names the handles of the providers it returned. */
export interface HandleCall {
  readonly tools: readonly AnyTool[];
  readonly notice: ToolInjectionStrategy;
}

/**
 * The handle tools of one server configuration, in a deterministic order (class order, then method
 * order), bound per call: each call gets fresh bindings, which know the providers that call found and
 * re-bind every other handle through `resolveProvider`.
 */
export class HandleSurface {
  private readonly codec: EntityHandleCodec;

  constructor(private readonly options: HandleSurfaceOptions) {
    this.codec =
      options.handleKey !== undefined
        ? new EntityHandleCodec(options.handleKey)
        : (processCodec ??= new EntityHandleCodec());
  }

  /** The handle tools as listed (their definitions do not depend on the call). */
  listed(): AnyTool[] {
    return this.forCall().tools.slice();
  }

  /** The handle tools and the handle notice of one call. */
  forCall(): HandleCall {
    const bindings = new HandleBindings(this.codec, this.options.resolveProvider);
    const tools = this.options.classes.flatMap((cls) => handleToolsOf(cls, bindings));
    return { tools, notice: new HandleNotice(bindings, this.options.classes, tools) };
  }
}

/** Appends `Customer c123: handle "…" (pass it to …)` for each provider of an offered class a call returned. */
class HandleNotice implements ToolInjectionStrategy {
  constructor(
    private readonly bindings: HandleBindings,
    private readonly classes: readonly Function[],
    private readonly tools: readonly AnyTool[],
  ) {}

  evaluateToolResult(context: ToolInjectionContext): ToolInjectionResult {
    const lines: string[] = [];
    for (const provider of extractProviders(context.lastToolCall.resultObject)) {
      const cls = this.classes.find((c) => provider instanceof c);
      if (!cls) continue;
      let id: string;
      try {
        id = providerIdentity(provider).instanceId;
      } catch {
        continue; // a provider without a usable id has no handle
      }
      const { handle } = this.bindings.remember(provider);
      const tools = this.tools.filter((t) => t.handleTarget?.providerClass === cls).map((t) => t.name);
      lines.push(`${sourceNameOf(cls)} ${id}: handle "${handle}" (pass it to ${tools.join(", ")})`);
    }
    return lines.length > 0 ? { notices: [`Entities found:\n${lines.join("\n")}`] } : {};
  }
}
