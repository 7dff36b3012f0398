import { bindProviderTools } from "../tools/bind-tools.js";
import { liveFirst, type ProviderResolver } from "../tools/provider-binding.js";
import { EntityHandleCodec, type HandleKey } from "../tools/entity-handle.js";
import { InvalidToolProviderError } from "../tools/errors.js";
import { extractProviders, FirstOfEachIdentity } from "../tools/extract-providers.js";
import { providerOptionsOf } from "../tools/read-provider-id.js";
import { SourceNameClaims } from "../tools/same-named-classes.js";
import type { AnyTool } from "../tools/tool.js";
import { deliveredAs, type ToolDelivery } from "../tools/tool-delivery.js";
import { HandleDiscovery } from "./handle-discovery.js";
import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "./tool-injection-strategy.js";

/**
 * How discovered providers are reached: `"per-instance"` binds each provider's tools under its own names
 * (`customer_c123_getAverageSpend`); `"handles"` offers one tool per class and method
 * (`customer_getAverageSpend`) that takes the provider's handle as an argument.
 */
export type ProviderBinding = "per-instance" | "handles";

/** Options of {@link ToolProviderStrategy} (and of `withToolProviderDiscovery`). */
export interface ProviderBindingOptions {
  /** Default `"per-instance"`. */
  readonly binding?: ProviderBinding | undefined;
  /**
   * Per-instance mode: how the discovered tools reach the model (default `"inline"`; see {@link ToolDelivery}).
   * `"deferred"` keeps the request's tool list, and so the provider's cached prefix, unchanged on discovery.
   */
  readonly delivery?: ToolDelivery | undefined;
  /**
   * Handles mode: classes whose tools are offered from the first step, so the tool list never changes.
   * Default: the classes the generated schema module says the run's tools can return (transitively);
   * a class known neither way has its tools added once, at its first discovery.
   */
  readonly classes?: readonly Function[] | undefined;
  /**
   * Handles mode: the key handles are signed with. Default: the process's random key, so every runner
   * of the process (a runner per request) accepts the others' handles, and no other process does. Give
   * every process that must accept another's handles the same key. `undefined` (an unset environment
   * variable) is the default.
   */
  readonly handleKey?: HandleKey | undefined;
  /**
   * Handles mode: the live provider of a valid handle this run has not seen (one minted by another
   * runner or process, or before a resume), by class source name and id; sync or async. Default: the
   * `resolveProvider` given to `resume`, else such handles are refused.
   */
  readonly resolveProvider?: ProviderResolver | undefined;
}

/** What discovery contributes to one run: the strategy that sees its tool results, and tools from the start. */
export interface RunDiscovery {
  /** The strategy that sees the run's tool results. */
  readonly strategy: ToolInjectionStrategy;
  /** Tools offered from the run's start (handles mode: each class's handle tools). */
  readonly tools: readonly AnyTool[];
  /** Handles mode: the run's handle discovery (for restoring a snapshot's handle tools). */
  readonly handles?: HandleDiscovery;
  /** How the discovered tools reach the model (for restoring a snapshot's tools the same way). */
  readonly delivery?: ToolDelivery;
}

/**
 * Discovery: when a tool returns `@ToolProvider` instances (alone, or in an array, `Set`, `Map` or other
 * collection), their `@LlmTool` methods become tools bound to those instances. Provider methods are
 * tools like any other, so a provider returned by a provider's tool is discovered the same way.
 *
 * A provider without a usable id does not end the run: it is skipped and the model is told why.
 *
 * In handles mode (see {@link ProviderBinding}) the providers become live under their handles instead;
 * each run gets its own {@link HandleDiscovery} from {@link forRun}. Used directly as a strategy, one
 * strategy object is one run.
 */
export class ToolProviderStrategy implements ToolInjectionStrategy {
  /** Tools per instance (`<prefix>_<id>_<method>`, the default) or by handle (`<prefix>_<method>`). */
  readonly binding: ProviderBinding;
  private readonly codec: EntityHandleCodec | undefined;
  private direct: HandleDiscovery | undefined;
  /**
   * Per-instance mode: the source names of the provider classes this run holds (see SourceNameClaims),
   * those of the providers it started with (restored from a snapshot) first.
   */
  private claims: SourceNameClaims | undefined;

  /**
   * @throws InvalidToolProviderError for a class in `classes` that is not a `@ToolProvider`, or (handles
   * mode) that has the source name of another class in `classes`.
   */
  constructor(private readonly options: ProviderBindingOptions = {}) {
    for (const cls of options.classes ?? [])
      if (!providerOptionsOf(cls))
        throw new InvalidToolProviderError(cls, "it is in `classes` but not decorated with @ToolProvider");
    this.binding = options.binding ?? "per-instance";
    if (this.binding === "handles") SourceNameClaims.claimAll(options.classes ?? []);
    this.codec = this.binding === "handles" ? new EntityHandleCodec(options.handleKey) : undefined;
  }

  /**
   * Discovery for one run (in per-instance mode a strategy of its own: a run's claims of class names are
   * its own). `classes` are the classes known up front when the options name none;
   * `takenNames` the names of the run's other tools; `resolveProvider` the resume's resolver; `live` the
   * providers a run of this process bound behind the snapshot this run continues, by `providerKeyOf`,
   * which answer before either resolver.
   */
  forRun(run: {
    readonly classes?: (() => readonly Function[]) | undefined;
    readonly takenNames: Iterable<string>;
    readonly resolveProvider?: ProviderResolver | undefined;
    readonly live?: ReadonlyMap<string, object> | undefined;
  }): RunDiscovery {
    if (!this.codec)
      return { strategy: new ToolProviderStrategy(this.options), tools: [], delivery: this.options.delivery };
    const handles = new HandleDiscovery({
      codec: this.codec,
      resolveProvider: liveFirst(run.live, this.options.resolveProvider ?? run.resolveProvider),
      classes: this.options.classes ?? run.classes?.() ?? [],
      takenNames: run.takenNames,
    });
    return { strategy: handles, tools: handles.initialTools(), handles };
  }

  /** Binds the providers the call returned; see {@link ToolInjectionStrategy.evaluateToolResult}. */
  evaluateToolResult(context: ToolInjectionContext): ToolInjectionResult {
    if (this.codec) {
      this.direct ??= this.forRun({ takenNames: context.currentTools.map((t) => t.name) }).handles!;
      return this.direct.evaluateToolResult(context);
    }
    const add: AnyTool[] = [];
    const notices: string[] = [];
    let providers: object[];
    try {
      providers = extractProviders(context.lastToolCall.resultObject);
    } catch (error) {
      // A hostile value (a Proxy whose trap throws) cannot be searched; the call's result still stands.
      const why = error instanceof Error ? error.message : String(error);
      return { notices: [`The result could not be searched for entities (${why}); no tools were added.`] };
    }
    const budget = context.toolBudget;
    const claims = providers.length > 0 ? (this.claims ??= heldClaims(context.currentTools)) : undefined;
    const bound = new FirstOfEachIdentity();
    for (let i = 0; i < providers.length; i++) {
      try {
        // Events, cost and snapshots name a provider by its class's source name: two classes with one
        // name (no generated module told them apart) could not be told apart there, so the second is refused.
        claims!.claim(providers[i]!.constructor);
        // The identity binding read (a provider without tools has none to skip): the first one wins.
        const tools = bindProviderTools(providers[i]!);
        if (tools.length === 0 || bound.first(tools[0]!.origin!.identity!))
          for (const tool of deliveredAs(tools, this.options.delivery)) add.push(tool);
      } catch (error) {
        if (!(error instanceof InvalidToolProviderError)) throw error;
        notices.push(`${error.message}; no tools were added for it.`);
      }
      // The budget binds leading entities only: once this one does not fit, none after it would. Their
      // tools are not built (binding 100 000 providers to keep 32 was nearly all of such a step).
      if (budget && i + 1 < providers.length && !budget.fits(add))
        return {
          add,
          notices: withRepeats(notices, bound),
          unbound: bound.countUnrecorded(providers, i + 1),
        };
    }
    return { add, notices: withRepeats(notices, bound) };
  }
}

/** `notices`, then what the model is told about identities the result held more than once. */
function withRepeats(notices: string[], bound: FirstOfEachIdentity): string[] {
  const repeated = bound.notice("tools");
  return repeated ? [...notices, repeated] : notices;
}

/**
 * The claims of the provider classes whose tools a run already has (a resumed or continued run's restored
 * providers), the first of a name holding it. A snapshot made before names were claimed may hold two
 * classes of one name: both stay, as they were restored.
 */
function heldClaims(tools: readonly AnyTool[]): SourceNameClaims {
  const claims = new SourceNameClaims();
  for (const tool of tools) {
    if (!tool.origin?.identity) continue;
    try {
      claims.claim(tool.origin.providerClass);
    } catch (error) {
      if (!(error instanceof InvalidToolProviderError)) throw error;
    }
  }
  return claims;
}
