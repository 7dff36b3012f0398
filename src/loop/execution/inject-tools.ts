import type { ModelMessage } from "ai";
import type { RunEvents } from "../../events/run-events.js";
import type {
  DiscoveredProvider,
  RestartRequest,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "../../strategies/tool-injection-strategy.js";
import { estimateDefinitionTokens } from "../../tools/definition-tokens.js";
import type { ProviderIdentity } from "../../tools/provider-identity.js";
import { readProviderId } from "../../tools/read-provider-id.js";
import type { AnyTool } from "../../tools/tool.js";
import { refuseInvalidToolName } from "../../tools/errors.js";
import { entityCount } from "../../tools/tool-budget.js";
import type { ToolAddOutcome, ToolRegistry, ToolRename } from "../../tools/tool-registry.js";
import { StrategyError } from "../errors/errors.js";
import { untilAborted } from "../errors/until-aborted.js";

/** A call of a known tool as the strategies see it: its result, or (`isError`) the error text the model reads. */
export interface InjectionTrigger {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: unknown;
  readonly resultText: string;
  readonly value: unknown;
  readonly isError: boolean;
  readonly iteration: number;
  readonly history: readonly ModelMessage[];
}

/** What the strategies made of one call: notes for the model, and a restart when one asked for it. */
export interface InjectionOutcome {
  readonly notices: readonly string[];
  readonly restart?: RestartRequest;
}

/**
 * The third seam of a tool call: every strategy evaluates the call (its live value, or its error text) in
 * the order added, and its changes are applied to the registry at once (so the next strategy sees them),
 * with events and notices when the tool budget skipped or evicted tools. The first restart request ends
 * the evaluation.
 */
export class ToolInjector {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly strategies: readonly ToolInjectionStrategy[],
    private readonly events: RunEvents,
    private readonly signal: AbortSignal | undefined,
    /**
     * Told of each addition's tools, in order: the one record of what was added (a run keeps them across
     * its attempts, see `Run.recordAdded`; the MCP server, what one call added).
     */
    private readonly added: (tools: readonly AnyTool[]) => void,
  ) {}

  async evaluate(trigger: InjectionTrigger): Promise<InjectionOutcome> {
    const notices: string[] = [];
    for (const strategy of this.strategies) {
      const delta = await this.ask(strategy, trigger);
      for (const notice of delta.notices ?? []) notices.push(notice);
      if (delta.restart) return { notices, restart: delta.restart };
      if (delta.remove && delta.remove.length > 0) {
        const removed = this.registry.remove(delta.remove);
        if (removed.length > 0)
          this.events.emit({
            type: "ToolsRemoved",
            toolNames: removed.map((t) => t.name),
            reason: "strategy",
            toolCallId: trigger.toolCallId,
          });
      }
      if (delta.add && delta.add.length > 0) {
        const outcome = this.registry.add(delta.add);
        this.report(outcome, trigger.toolName, trigger.toolCallId);
        const unbound = delta.unbound ?? 0;
        if (outcome.skipped.length > 0 || unbound > 0)
          notices.push(skippedNotice(delta.add, outcome.skipped, unbound));
        if (outcome.evicted.length > 0) notices.push(evictionNotice(outcome.evicted));
        // A provider's tools are listed by discovery under their bound names; any other tool (a section's)
        // was announced by the strategy under the name it asked for.
        const renamed = outcome.renamed.filter((r) => !this.registry.get(r.name)?.origin?.identity);
        if (renamed.length > 0) notices.push(renameNotice(renamed));
      }
      if (delta.discovered && delta.discovered.length > 0)
        this.reportHandles(delta.discovered, trigger.toolCallId);
    }
    return { notices };
  }

  /** Adds tools that did not come from a strategy (a dynamic source), with the same events and budget. */
  inject(tools: readonly AnyTool[], triggeredBy: string): string[] {
    if (tools.length === 0) return [];
    const outcome = this.registry.add(tools);
    this.report(outcome, triggeredBy);
    return [...outcome.added, ...outcome.replaced.map((r) => r.next), ...outcome.alreadyBound].map(
      (t) => t.name,
    );
  }

  private async ask(
    strategy: ToolInjectionStrategy,
    trigger: InjectionTrigger,
  ): Promise<ToolInjectionResult> {
    try {
      const evaluation = Promise.resolve().then(() =>
        strategy.evaluateToolResult({
          conversationHistory: trigger.history,
          currentTools: this.registry.all(),
          lastToolCall: {
            toolName: trigger.toolName,
            toolInput: trigger.input,
            result: trigger.resultText,
            resultObject: trigger.value,
            isError: trigger.isError,
          },
          iterationCount: trigger.iteration,
          toolBudget: this.registry.toolBudget,
        }),
      );
      const result = await untilAborted(evaluation, this.signal);
      for (const tool of result.add ?? []) refuseInvalidToolName(tool.name);
      return result;
    } catch (error) {
      if (this.signal?.aborted) throw this.signal.reason ?? error;
      throw new StrategyError(trigger.toolName, error);
    }
  }

  /** Providers reached through handles: one `ToolProviderDiscovered` each, with the handle. */
  private reportHandles(discovered: readonly DiscoveredProvider[], toolCallId: string): void {
    this.events.discovered(
      discovered,
      // A strategy written before `identity` existed reports the instance only: its identity is read from it.
      (provider) => provider.identity ?? readProviderId(provider.instance).identity,
      (provider, identity) => ({
        type: "ToolProviderDiscovered",
        providerClass: provider.instance.constructor,
        identity,
        instanceId: String(identity.id),
        toolCallId,
        exposedTools: provider.tools,
        replacedEarlierInstance: provider.replaced,
        renamedTools: [],
        // The handle tools are the class's, offered to every run from its start: this provider adds none.
        definitionTokens: {},
        handle: provider.handle,
        delivery: "inline",
      }),
    );
  }

  private report(outcome: ToolAddOutcome, triggeredBy: string, toolCallId?: string): void {
    const fresh = [...outcome.added, ...outcome.replaced.map((r) => r.next)];
    if (fresh.length === 0) return;
    this.added(fresh);
    const replacedNames = new Set(outcome.replaced.map((r) => r.next.name));
    const renamed = new Map(outcome.renamed.map((r) => [r.name, r]));
    const byInstance = new Map<object, { identity: ProviderIdentity; tools: AnyTool[] }>();
    for (const tool of fresh) {
      const origin = tool.origin;
      if (origin?.identity === undefined) continue;
      const group = byInstance.get(origin.instance) ?? { identity: origin.identity, tools: [] };
      group.tools.push(tool);
      byInstance.set(origin.instance, group);
    }
    this.events.discovered([...byInstance.values()], byIdentity, ({ identity, tools }) => {
      const origin = tools[0]!.origin!;
      return {
        type: "ToolProviderDiscovered",
        providerClass: origin.providerClass,
        identity,
        instanceId: String(identity.id),
        ...(toolCallId === undefined ? {} : { toolCallId }),
        exposedTools: tools.map((t) => t.name),
        replacedEarlierInstance: tools.some((t) => replacedNames.has(t.name)),
        renamedTools: tools.flatMap((t) => renamed.get(t.name) ?? []),
        definitionTokens: Object.fromEntries(tools.map((t) => [t.name, estimateDefinitionTokens(t)])),
        methods: Object.fromEntries(tools.map((t) => [t.name, t.origin!.methodName])),
        delivery: tools[0]!.delivery ?? "inline",
      };
    });
    const cause = toolCallId === undefined ? {} : { toolCallId };
    this.events.emit({ type: "ToolsInjected", toolNames: fresh.map((t) => t.name), triggeredBy, ...cause });
    if (outcome.evicted.length > 0) {
      this.events.emit({
        type: "ToolsRemoved",
        toolNames: outcome.evicted.map((t) => t.name),
        reason: "budget",
        ...cause,
      });
    }
  }
}

const byIdentity = (group: { identity: ProviderIdentity }) => group.identity;

/**
 * What the model is told when one result brought more than the budget holds: how many of its entities
 * got tools, how many did not, and how to reach those (the same call again binds the same first ones).
 * The budget admits a leading part of what was requested, so the bound ones are the first ones.
 */
function skippedNotice(requested: readonly AnyTool[], skipped: readonly AnyTool[], unbound: number): string {
  const bound = requested.slice(0, requested.length - skipped.length);
  const boundCount = entityCount(bound);
  const others = entityCount(requested) + unbound - boundCount;
  // An entity larger than the whole budget, when first, is bound in part.
  const partly = boundCount + entityCount(skipped) > entityCount(requested);
  return (
    `Tool budget reached: of this result's ${counted(requested, unbound)}, only the first ${boundCount} ` +
    `got tools (${bound.length} tool${bound.length === 1 ? "" : "s"}${partly ? ", not all of its own" : ""})` +
    `${others > 0 ? `; the other ${others} did not` : ""}. Calling the same tool again binds the same ` +
    "first ones. To reach one of the others, call a tool that returns fewer results with it among the " +
    "first (a narrower search, a filter, a smaller page)."
  );
}

/** "3 entities" (provider instances), or "3 items" when some tools have no provider. */
function counted(tools: readonly AnyTool[], unbound: number): string {
  const count = entityCount(tools) + unbound;
  if (tools.every((t) => t.origin?.identity !== undefined))
    return `${count} ${count === 1 ? "entity" : "entities"}`;
  return `${count} ${count === 1 ? "item" : "items"}`;
}

function renameNotice(renamed: readonly ToolRename[]): string {
  const pairs = renamed.map((r) => `${r.requested} as ${r.name}`).join(", ");
  return `Offered under another name, as its own is another tool's: ${pairs}.`;
}

function evictionNotice(evicted: readonly AnyTool[]): string {
  return (
    `Tool budget reached: these least recently used tools were removed: ${evicted.map((t) => t.name).join(", ")}. ` +
    "Call the tool that returned their object again to get them back."
  );
}
