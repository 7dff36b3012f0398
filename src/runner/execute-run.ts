import type { ModelMessage } from "ai";
import { DisclosureSession } from "../disclosure/disclosure-session.js";
import type { PromptTemplate } from "../disclosure/prompt-template.js";
import type { PromptParams, VisibilityOverrides } from "../disclosure/section-visibility.js";
import { VisibilityExpansionRequired } from "../disclosure/visibility-expansion-required.js";
import { VisibilityStore, type VisibilitySnapshot } from "../disclosure/visibility-store.js";
import { restoreCounters } from "../events/run-counters.js";
import type { RunEvents } from "../events/run-events.js";
import { addUsage, emptyUsage, type TokenUsage } from "../events/token-usage.js";
import { ApprovalGate, type ApprovalPredicate, type PendingApproval } from "../loop/approval-gate.js";
import { driveConversation } from "../loop/conversation-driver.js";
import { isConversationAdapter, type ConversationAdapter } from "../loop/conversation-port.js";
import type { ToolMiddleware } from "../loop/execution/tool-middleware.js";
import type { ModelAdapter } from "../loop/model-port.js";
import { RunSession } from "../loop/run-session.js";
import { RunState } from "../loop/run-state.js";
import type { RunSettings } from "../loop/run-settings.js";
import type { RunSnapshot } from "../loop/run-snapshot.js";
import { readSnapshot } from "../loop/snapshot-codec.js";
import type { RunRecord } from "../loop/step-outcome.js";
import { driveSteps, type StepListener } from "../loop/step-driver.js";
import type { DynamicToolSource } from "../loop/tool-source-port.js";
import type { JsonSchema } from "../schema/json-schema.js";
import type { ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import { ToolProviderStrategy, type RunDiscovery } from "../strategies/tool-provider-strategy.js";
import { returnedProviderClasses } from "../tools/provider-classes.js";
import type { KeyRing } from "../tools/signing-key.js";
import { loadRuntimeDependencies } from "../tools/runtime-dependencies.js";
import type { AnyTool } from "../tools/tool.js";
import { checkToolSchemas } from "../tools/tool-methods.js";
import { toolsFrom } from "../tools/tool-sources.js";
import { ExpansionLimitError } from "./expansion-limit-error.js";
import { beforeFirstStep, listSources } from "./list-sources.js";
import { resumeState, type CheckedResume, type ResumeFrom } from "./run-resume.js";
import type { ToolResultMediaTypes } from "../loop/media-types.js";

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
  /** Which calls need a person's approval, besides tools marked `needsApproval`. */
  readonly approval?: ApprovalPredicate;
  /** Go on from a snapshot instead of starting from `messages`. */
  readonly resume?: ResumeFrom;
  /** A streamed run's listener: model parts as they arrive, and step ends (step backends). */
  readonly listener?: StepListener;
  /** Keys that sign every snapshot and that a snapshot read back must verify against (first one signs). */
  readonly snapshotKeys?: KeyRing;
  /** The media the model takes in a tool result, in place of the adapter's `toolResultMediaTypes`. */
  readonly toolResultMediaTypes?: ToolResultMediaTypes;
}

/** A run's outcome across restarts: completed with an answer, or paused for approval. */
export interface RunOutcome extends RunRecord {
  readonly status: "completed" | "awaiting-approval";
  readonly answer: unknown;
  readonly pending: readonly PendingApproval[];
  readonly snapshot: RunSnapshot;
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
  await loadRuntimeDependencies(); // validation and class-transformer are not loaded at import
  const started = performance.now();
  // Checked (signature, then shape) before anything reads it, and copied: nothing the caller holds is
  // what runs, and nothing the run changes is what the caller holds.
  const resume = setup.resume && {
    ...setup.resume,
    live: RunState.liveProviders(setup.resume.snapshot),
    snapshot: structuredClone(readSnapshot(setup.resume.snapshot, setup.snapshotKeys)),
  };
  const before = resume?.snapshot.usage ?? emptyUsage();
  setup.events.emit({ type: "RunStarted", resumed: setup.resume !== undefined });
  const finish = (init: {
    status: "completed" | "awaiting-approval" | "failed";
    usage: TokenUsage;
    error?: Error;
  }) =>
    setup.events.emit({
      type: "RunFinished",
      ...init,
      usage: subtractUsage(init.usage, before),
      totalIterations: setup.events.counters.modelCalls,
      iterations: setup.events.counters.modelCalls,
      durationMs: performance.now() - started,
      ...(setup.events.cost ? { cost: setup.events.cost } : {}),
    });
  try {
    const outcome = await runAttempts(setup, resume);
    finish({ status: outcome.status, usage: outcome.usage });
    return outcome;
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    // The usage of a failed run is on its `ModelResponded` events; the total here says 0.
    finish({ status: "failed", usage: addUsage(before, undefined), error: failure });
    throw error;
  }
}

async function runAttempts(setup: RunSetup, resume: CheckedResume | undefined): Promise<RunOutcome> {
  checkToolSchemas({ discovery: setup.strategies.some((s) => s instanceof ToolProviderStrategy) });
  const store = new VisibilityStore(
    (resume?.snapshot.visibility as VisibilitySnapshot | undefined) ?? setup.resumeFrom,
  );
  const total = {
    iterations: resume?.snapshot.iterations ?? 0,
    usage: addUsage(emptyUsage(), resume?.snapshot.usage),
  };
  if (resume) restoreCounters(setup.events.counters, resume.snapshot.counters);
  const gate = new ApprovalGate(setup.approval, resume?.approvals, resume?.snapshot.paused?.calls);
  let discoveries: RunDiscovery[] | undefined; // one per run: handles stay live across restarts
  for (let restarts = 0; ; restarts++) {
    const disclosure = disclosureFor(setup, store);
    const ownTools = disclosure ? toolsFrom(disclosure.initialTools(), setup.tools) : setup.tools;
    const sources = await listSources(setup.sources, ownTools, setup.signal, setup.events).catch(
      (error: unknown) =>
        Promise.reject(beforeFirstStep(error, setup.messages, resume?.snapshot, total.iterations)),
    );
    const listed = [...ownTools, ...sources.flatMap((s) => s.tools)];
    discoveries ??= startDiscovery(setup.strategies, listed, resume);
    const tools = [...listed, ...discoveries.flatMap((d) => d.tools)];
    const handles = discoveries.find((d) => d.handles)?.handles;
    const delivery = discoveries.find((d) => d.delivery)?.delivery;
    const resumed =
      resume && restarts === 0
        ? await resumeState(resume, tools, handles, setup.signal, delivery)
        : undefined;
    const strategies = discoveries.map((d) => d.strategy);
    const init = {
      tools,
      settings: setup.settings,
      events: setup.events,
      snapshot: {
        visibility: () => store.snapshot(),
        keys: setup.snapshotKeys,
        handles: handles && (() => handles.bindings.liveProviders()),
      },
    };
    // A resumed run's first attempt is its snapshot read back; a restart of a continued conversation
    // starts from the snapshot's history and the new messages.
    const state =
      resume && resumed
        ? RunState.fromSnapshot(resume.snapshot, { ...init, restored: resumed.restored })
        : new RunState({
            ...init,
            messages: resume ? [...resume.snapshot.history, ...(resume.followUp ?? [])] : setup.messages,
            snapshot: { ...init.snapshot, earlier: { iterations: total.iterations, usage: total.usage } },
          });
    const session = new RunSession({
      state,
      system: disclosure ? disclosure.render() : (setup.system as string | undefined),
      sources,
      strategies: disclosure ? [...strategies, disclosure] : strategies,
      middleware: setup.middleware,
      outputSchema: setup.outputSchema,
      signal: setup.signal,
      approvals: gate,
      toolResultMediaTypes: setup.toolResultMediaTypes ?? setup.adapter.toolResultMediaTypes,
      ...(resumed && { notices: resumed.notices, lost: resumed.lost, followUp: resumed.followUp }),
    });
    const end = isConversationAdapter(setup.adapter)
      ? await driveConversation(setup.adapter, session)
      : await driveSteps(setup.adapter, session, setup.listener);
    const snapshot = state.toSnapshot();
    total.iterations += end.iterations;
    total.usage = addUsage(total.usage, end.usage);
    if (end.type !== "restart") {
      return {
        ...end,
        status: end.type === "final" ? "completed" : "awaiting-approval",
        answer: end.type === "final" ? end.answer : undefined,
        pending: end.type === "pause" ? end.pending : [],
        snapshot,
        iterations: total.iterations,
        usage: total.usage,
        visibility: store.snapshot(),
      };
    }
    const request = end.request;
    const expansion = request instanceof VisibilityExpansionRequired ? request : undefined;
    if (restarts >= setup.settings.maxExpansions) {
      throw session.fail(
        new ExpansionLimitError(setup.settings.maxExpansions, expansion?.sectionKeys ?? [request.reason]),
      );
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

/**
 * Each strategy as one run uses it: discovery in handles mode keeps the run's live providers and offers
 * the handle tools of the classes known up front.
 */
function startDiscovery(
  strategies: readonly ToolInjectionStrategy[],
  tools: readonly AnyTool[],
  resume: CheckedResume | undefined,
): RunDiscovery[] {
  return strategies.map((strategy) =>
    strategy instanceof ToolProviderStrategy
      ? strategy.forRun({
          classes: () => returnedProviderClasses(tools),
          takenNames: tools.map((t) => t.name),
          resolveProvider: resume?.resolveProvider,
          live: resume?.live,
        })
      : { strategy, tools: [] },
  );
}

/** `a - b`, for the usage of a resumed run's own part. */
function subtractUsage(a: TokenUsage, b: Partial<TokenUsage>): TokenUsage {
  return addUsage(a, {
    inputTokens: -(b.inputTokens ?? 0),
    outputTokens: -(b.outputTokens ?? 0),
    cachedInputTokens: -(b.cachedInputTokens ?? 0),
    reasoningTokens: -(b.reasoningTokens ?? 0),
  });
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
