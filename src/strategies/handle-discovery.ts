import { sourceNameOf } from "../schema/schema-store.js";
import { HandleBindings, type ProviderResolver } from "../tools/entity-handle-bindings.js";
import type { EntityHandleCodec } from "../tools/entity-handle.js";
import { InvalidToolProviderError } from "../tools/errors.js";
import { extractProviders, FirstOfEachIdentity } from "../tools/extract-providers.js";
import { HANDLE_PARAMETER, handleToolsOf } from "../tools/handle-tools.js";
import type { ProviderIdentity } from "../tools/provider-identity.js";
import type { AnyTool } from "../tools/tool.js";
import { toolMethodOf } from "../tools/tool-methods.js";
import { disambiguatedToolName } from "../tools/tool-names.js";
import type {
  DiscoveredProvider,
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "./tool-injection-strategy.js";

/** What one run's handle discovery starts from. */
export interface HandleDiscoveryInit {
  /** Mints and reads the run's handles (with the signing key). */
  readonly codec: EntityHandleCodec;
  /** Re-binds a handle minted elsewhere (same key) that this run has not seen. */
  readonly resolveProvider?: ProviderResolver | undefined;
  /** Classes whose tools are offered from the first step, in this order. */
  readonly classes: readonly Function[];
  /**
   * Names the run's other tools hold: a handle tool never takes one of them. A `Set` is read as it is,
   * not copied (the MCP server passes one set of its thousands of names to every call).
   */
  readonly takenNames: Iterable<string>;
}

/**
 * Discovery in handles mode, for one run: a discovered provider becomes live under its handle (the
 * newest instance of an identity wins across results, the first within one), the result the model reads
 * lists each provider's handle and the operations of its class, and the tool list only changes when a
 * class not known up front is seen for the first time (its handle tools join then, once).
 */
export class HandleDiscovery implements ToolInjectionStrategy {
  /** The providers live behind handles in this run. */
  readonly bindings: HandleBindings;
  private readonly classTools = new Map<Function, AnyTool[]>();
  /** The other tools' names (see `HandleDiscoveryInit.takenNames`), and the names this run's classes took. */
  private readonly others: ReadonlySet<string>;
  private readonly taken = new Set<string>();
  private readonly initial: AnyTool[];

  constructor(init: HandleDiscoveryInit) {
    this.bindings = new HandleBindings(init.codec, init.resolveProvider);
    this.others = init.takenNames instanceof Set ? init.takenNames : new Set(init.takenNames);
    this.initial = [...new Set(init.classes)].flatMap((cls) => this.toolsOf(cls));
  }

  /** The handle tools of the classes known up front: offered from the first step, for the whole run. */
  initialTools(): readonly AnyTool[] {
    return this.initial;
  }

  /**
   * The handle tools of a class in this run (the same objects every time), their names made unique in
   * the run: two classes with one prefix and method get a deterministic other name for the second.
   *
   * @throws InvalidToolProviderError when another class of this run has the same source name.
   */
  toolsOf(providerClass: Function): AnyTool[] {
    let tools = this.classTools.get(providerClass);
    if (!tools) {
      this.bindings.claims.claim(providerClass); // a second class named like a known one is refused
      tools = handleToolsOf(providerClass, this.bindings).map((tool) => {
        let name = tool.name;
        for (let attempt = 1; this.others.has(name) || this.taken.has(name); attempt++)
          name = disambiguatedToolName(
            tool.name,
            `${sourceNameOf(providerClass)}|${tool.handleTarget!.methodName}`,
            attempt,
            toolMethodOf(tool)?.metadata.name,
          );
        this.taken.add(name);
        return name === tool.name ? tool : { ...tool, name };
      });
      this.classTools.set(providerClass, tools);
    }
    return tools;
  }

  /** Mints handles for the providers the call returned and tells the model which tools take them. */
  evaluateToolResult(context: ToolInjectionContext): ToolInjectionResult {
    let providers: object[];
    try {
      providers = extractProviders(context.lastToolCall.resultObject);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { notices: [`The result could not be searched for entities (${why}); no handles were made.`] };
    }
    const notices: string[] = [];
    const discovered: DiscoveredProvider[] = [];
    const byClass = new Map<Function, string[]>();
    const bound = new FirstOfEachIdentity();
    const first = (identity: ProviderIdentity) => bound.first(identity);
    for (const provider of providers) {
      let remembered;
      try {
        // A later instance of an identity this result already bound is skipped: the first one wins.
        remembered = this.bindings.remember(provider, first);
      } catch (error) {
        if (!(error instanceof InvalidToolProviderError)) throw error;
        notices.push(`${error.message}; no handle was made for it.`);
        continue;
      }
      if (remembered.repeated) continue;
      const cls = provider.constructor;
      const handles = byClass.get(cls) ?? [];
      handles.push(remembered.handle);
      byClass.set(cls, handles);
      if (!remembered.known)
        discovered.push({
          instance: provider,
          instanceId: String(remembered.identity.id),
          identity: remembered.identity,
          handle: remembered.handle,
          tools: this.toolsOf(cls).map((t) => t.name),
          replaced: remembered.replaced,
        });
    }
    const add: AnyTool[] = [];
    for (const [cls, handles] of byClass) {
      const tools = this.toolsOf(cls);
      // Adding tools the run already has changes nothing (and keeps them from the budget's eviction).
      add.push(...tools);
      notices.push(handleNotice(sourceNameOf(cls), handles, tools));
    }
    const repeated = bound.notice("handle");
    if (repeated) notices.push(repeated);
    return { add, notices, discovered };
  }
}

/** What the model reads about the providers of one class in a result: their handles and operations. */
function handleNotice(className: string, handles: readonly string[], tools: readonly AnyTool[]): string {
  const operations = tools
    .map((t) =>
      t.handleTarget!.parameter === HANDLE_PARAMETER
        ? t.name
        : `${t.name} (as "${t.handleTarget!.parameter}")`,
    )
    .join(", ");
  const noun = handles.length === 1 ? "handle" : "handles";
  // An operation with a parameter of its own named handle takes the handle in another property: saying
  // only "handle" sent the handle into that parameter (and the call was refused for the missing one).
  const where = tools.every((t) => t.handleTarget!.parameter === HANDLE_PARAMETER)
    ? '"handle"'
    : '"handle", or as the property an operation names';
  return `${className} ${noun} ${JSON.stringify(handles)}; operations: ${operations}; pass a handle as ${where}.`;
}
