import type { ModelMessage } from "ai";
import { DisclosureSession } from "../disclosure/disclosure-session.js";
import type { PromptTemplate } from "../disclosure/prompt-template.js";
import type { PromptParams, VisibilityOverrides } from "../disclosure/section-visibility.js";
import { VisibilityExpansionRequired } from "../disclosure/visibility-expansion-required.js";
import { VisibilityStore, type VisibilitySnapshot } from "../disclosure/visibility-store.js";
import type { RunEvents } from "../events/run-events.js";
import { driveConversation } from "../loop/conversation-driver.js";
import { isConversationAdapter, type ConversationAdapter } from "../loop/conversation-port.js";
import { ToolLoopError, withConversation } from "../loop/errors.js";
import type { ToolMiddleware } from "../loop/execution/tool-middleware.js";
import type { ModelAdapter, TokenUsage } from "../loop/model-port.js";
import { RunSession, type SourceWithTools } from "../loop/run-session.js";
import type { DynamicToolSource } from "../loop/tool-source-port.js";
import type { RunSettings } from "../loop/run-settings.js";
import type { RunRecord } from "../loop/step-outcome.js";
import { driveSteps } from "../loop/step-driver.js";
import type { JsonSchema } from "../schema/json-schema.js";
import type { ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import type { AnyTool } from "../tools/tool.js";
import { checkToolSchemas } from "../tools/tool-methods.js";
import { toolsFrom } from "../tools/tool-sources.js";
import { ExpansionLimitError } from "./expansion-limit-error.js";
import { ToolSourceClashError } from "./tool-source-clash-error.js";

/** A sectioned system prompt and its parameters. */
export interface TemplatePrompt {
  readonly template: PromptTemplate;
  readonly params: PromptParams;
}

/** Everything one run needs: the runner's configuration and the call's own options. */
export interface RunSetup {
  readonly adapter: ModelAdapter | ConversationAdapter;
  readonly tools: readonly AnyTool[];
  readonly strategies: readonly ToolInjectionStrategy[];
  readonly middleware: readonly ToolMiddleware[];
  readonly settings: RunSettings;
  readonly system?: string | TemplatePrompt;
  readonly visibilityOverrides: VisibilityOverrides;
  readonly messages: readonly ModelMessage[];
  readonly outputSchema?: JsonSchema;
  readonly signal?: AbortSignal;
  readonly events: RunEvents;
  readonly resumeFrom?: VisibilitySnapshot;
  /** Tool sources outside the process (MCP servers), listed at the start and re-listed when they change. */
  readonly sources: readonly DynamicToolSource[];
}

/** A run's outcome across restarts. */
export interface RunOutcome extends RunRecord {
  readonly answer: unknown;
  readonly visibility: VisibilitySnapshot;
}

/**
 * Runs one prompt: a run session per attempt, driven by the driver of the adapter's kind. When an attempt
 * ends asking for a restart (a section read unlocked tools the backend cannot add mid-conversation), the
 * requested overrides are stored, the prompt re-rendered, and the run starts again from the prompt, at
 * most `maxExpansions` times. Iterations and usage add up across restarts; the history and the injected
 * tools are those of the attempt that finished.
 */
export async function executeRun(setup: RunSetup): Promise<RunOutcome> {
  checkToolSchemas();
  const store = new VisibilityStore(setup.resumeFrom);
  const total = { iterations: 0, usage: { inputTokens: 0, outputTokens: 0 } };
  for (let restarts = 0; ; restarts++) {
    const disclosure = disclosureFor(setup, store);
    const ownTools = disclosure ? toolsFrom(disclosure.initialTools(), setup.tools) : setup.tools;
    const sources = await listSources(setup.sources, ownTools, setup.signal);
    const session = new RunSession({
      messages: setup.messages,
      system: disclosure ? disclosure.render() : (setup.system as string | undefined),
      tools: [...ownTools, ...sources.flatMap((s) => s.tools)],
      sources,
      strategies: disclosure ? [...setup.strategies, disclosure] : setup.strategies,
      middleware: setup.middleware,
      settings: setup.settings,
      outputSchema: setup.outputSchema,
      signal: setup.signal,
      events: setup.events,
    });
    const end = await drive(setup.adapter, session, total.iterations);
    total.iterations += end.iterations;
    total.usage = addUsage(total.usage, end.usage);
    if (end.type === "final") {
      return { ...end, iterations: total.iterations, usage: total.usage, visibility: store.snapshot() };
    }
    const request = end.request;
    const expansion = request instanceof VisibilityExpansionRequired ? request : undefined;
    if (restarts >= setup.settings.maxExpansions) {
      const error = new ExpansionLimitError(
        setup.settings.maxExpansions,
        expansion?.sectionKeys ?? [request.reason],
      );
      throw withConversation(error, end.history, total.iterations, () => error);
    }
    for (const [sectionKey, visibility] of Object.entries(expansion?.requestedOverrides ?? {})) {
      store.dispatch({ type: "SetVisibilityOverride", sectionKey, visibility });
    }
    for (const sectionKey of expansion?.sectionKeys ?? [])
      setup.events.emit({
        type: "VisibilityExpanded",
        sectionKey,
        mode: "restart",
        unlockedTools: expansion!.unlockedTools,
      });
  }
}

/** One attempt; an error it throws counts the iterations of the attempts before it too. */
async function drive(adapter: ModelAdapter | ConversationAdapter, session: RunSession, earlier: number) {
  try {
    return isConversationAdapter(adapter)
      ? await driveConversation(adapter, session)
      : await driveSteps(adapter, session);
  } catch (error) {
    if (error instanceof ToolLoopError) error.totalIterations += earlier;
    throw error;
  }
}

/**
 * Every source's tools at the start of an attempt.
 *
 * @throws ToolSourceClashError when a name is offered twice (by the runner's tools or another source).
 */
async function listSources(
  sources: readonly DynamicToolSource[],
  ownTools: readonly AnyTool[],
  signal: AbortSignal | undefined,
): Promise<SourceWithTools[]> {
  const owners = new Map(ownTools.map((t) => [t.name, "the runner's own tools"]));
  const listed: SourceWithTools[] = [];
  for (const source of sources) {
    await source.open();
    const tools = await source.listTools(signal);
    for (const tool of tools) {
      const owner = owners.get(tool.name);
      if (owner) throw new ToolSourceClashError(tool.name, owner, source.label);
      owners.set(tool.name, source.label);
    }
    listed.push({ source, tools });
  }
  return listed;
}

function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

function disclosureFor(setup: RunSetup, store: VisibilityStore): DisclosureSession | undefined {
  if (setup.system === undefined || typeof setup.system === "string") return undefined;
  const { template, params } = setup.system;
  return new DisclosureSession(
    template,
    params,
    setup.visibilityOverrides,
    store,
    setup.adapter.supportsDynamicTools,
    setup.events,
  );
}
