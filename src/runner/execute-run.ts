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
import type { ModelAdapter } from "../loop/model-port.js";
import { addUsage, emptyUsage, type TokenUsage } from "../events/token-usage.js";
import {
  ApprovalGate,
  type ApprovalDecision,
  type ApprovalPredicate,
  type PendingApproval,
} from "../loop/approval-gate.js";
import { RunSession, type SourceWithTools } from "../loop/run-session.js";
import {
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  snapshotTool,
  type RunSnapshot,
  type SnapshotTool,
} from "../loop/run-snapshot.js";
import { readSnapshot, signSnapshot } from "../loop/snapshot-codec.js";
import { restoreCounters } from "../events/run-counters.js";
import type { DynamicToolSource } from "../loop/tool-source-port.js";
import { listSource } from "../loop/list-source.js";
import type { RunSettings } from "../loop/run-settings.js";
import type { PausedCalls, RunRecord } from "../loop/step-outcome.js";
import { driveSteps, type StepListener } from "../loop/step-driver.js";
import type { JsonSchema } from "../schema/json-schema.js";
import type { HandleDiscovery } from "../strategies/handle-discovery.js";
import type { ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import { ToolProviderStrategy, type RunDiscovery } from "../strategies/tool-provider-strategy.js";
import { returnedProviderClasses } from "../tools/provider-classes.js";
import type { AnyTool } from "../tools/tool.js";
import { checkToolSchemas } from "../tools/tool-methods.js";
import { toolsFrom } from "../tools/tool-sources.js";
import { ExpansionLimitError } from "./expansion-limit-error.js";
import {
  checkSnapshotTools,
  restoreTools,
  snapshotProviderKey,
  type ProviderResolver,
} from "./restore-tools.js";
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
  /** Which calls need a person's approval, besides tools marked `needsApproval`. */
  readonly approval?: ApprovalPredicate;
  /** Go on from a snapshot instead of starting from `messages`. */
  readonly resume?: ResumeFrom;
  /** A streamed run's listener: model parts as they arrive, and step ends (step backends). */
  readonly listener?: StepListener;
  /** Keys that sign every snapshot and that a snapshot read back must verify against (first one signs). */
  readonly snapshotKeys?: readonly Buffer[];
}

/** What a resumed run starts from. */
export interface ResumeFrom {
  readonly snapshot: RunSnapshot;
  /** Decisions on the calls the snapshot paused before, by `approvalId`. */
  readonly approvals: Readonly<Record<string, ApprovalDecision>>;
  readonly resolveProvider?: ProviderResolver;
  /** `continueFrom`: the new messages the conversation goes on with. */
  readonly followUp?: readonly ModelMessage[];
}

/** A resume whose snapshot has been checked and copied, with the live providers of its run, if any. */
type CheckedResume = ResumeFrom & { readonly live: ReadonlyMap<string, object> | undefined };

/**
 * The providers bound by the run that made a snapshot, by the snapshot object handed out: a conversation
 * continued in the same process re-binds the very objects (their state and dependencies intact) without
 * asking `resolveProvider`. Weak: a snapshot nobody holds lets its providers go.
 */
const liveProviders = new WeakMap<object, ReadonlyMap<string, object>>();

/** The provider of each discovered tool, by the key a snapshot's entries give (`recorded[i]` is `tools[i]`). */
function providersOf(
  tools: readonly AnyTool[],
  recorded: readonly SnapshotTool[],
): ReadonlyMap<string, object> {
  const providers = new Map<string, object>();
  recorded.forEach((entry, i) => {
    const instance = tools[i]!.origin?.instance;
    if ("idType" in entry && instance)
      providers.set(snapshotProviderKey(entry.providerClass, entry.idType, entry.id), instance);
  });
  return providers;
}

/**
 * A resolver that answers from the providers a run of this process bound (handles mode re-binds through
 * it), and asks `resolve` for any other.
 */
function withLive(
  live: ReadonlyMap<string, object> | undefined,
  resolve: ProviderResolver | undefined,
): ProviderResolver | undefined {
  if (!live || live.size === 0) return resolve;
  return (providerClass, id) =>
    live.get(snapshotProviderKey(providerClass, typeof id, id)) ?? resolve?.(providerClass, id);
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
  const started = performance.now();
  // Checked (signature, then shape) before anything reads it, and copied: nothing the caller holds is
  // what runs, and nothing the run changes is what the caller holds.
  const resume = setup.resume && {
    ...setup.resume,
    live: liveProviders.get(setup.resume.snapshot),
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
      (error: unknown) => Promise.reject(beforeFirstStep(error, setup, resume, total.iterations)),
    );
    const listed = [...ownTools, ...sources.flatMap((s) => s.tools)];
    discoveries ??= startDiscovery(setup.strategies, listed, withLive(resume?.live, resume?.resolveProvider));
    const tools = [...listed, ...discoveries.flatMap((d) => d.tools)];
    const handles = discoveries.find((d) => d.handles)?.handles;
    const resumed =
      resume && restarts === 0 ? await resumeState(resume, tools, handles, setup.signal) : undefined;
    const strategies = discoveries.map((d) => d.strategy);
    const session = new RunSession({
      // A restart of a continued conversation starts from the snapshot and the new messages.
      messages: !resume
        ? setup.messages
        : resumed
          ? resume.snapshot.history
          : [...resume.snapshot.history, ...(resume.followUp ?? [])],
      system: disclosure ? disclosure.render() : (setup.system as string | undefined),
      tools,
      sources,
      strategies: disclosure ? [...strategies, disclosure] : strategies,
      middleware: setup.middleware,
      settings: setup.settings,
      outputSchema: setup.outputSchema,
      signal: setup.signal,
      events: setup.events,
      approvals: gate,
      ...resumed,
    });
    const snapshotOf = (paused?: PausedCalls): RunSnapshot => {
      const bound = session.registry.all();
      const recorded = bound.map(snapshotTool);
      const snapshot = signSnapshot(
        {
          format: SNAPSHOT_FORMAT,
          version: SNAPSHOT_VERSION,
          history: structuredClone(session.history),
          tools: recorded,
          ...(paused ? { paused: structuredClone(paused) } : {}),
          visibility: store.snapshot(),
          iterations: total.iterations + session.iteration,
          usage: addUsage(total.usage, session.usage),
          counters: { ...setup.events.counters },
          settings: { ...setup.settings },
        },
        setup.snapshotKeys,
      );
      liveProviders.set(
        snapshot,
        new Map([...providersOf(bound, recorded), ...(handles?.bindings.liveProviders() ?? [])]),
      );
      return snapshot;
    };
    const end = await drive(setup.adapter, session, total.iterations, snapshotOf, setup.listener);
    const snapshot = snapshotOf(end.type === "pause" ? end.paused : undefined);
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

/**
 * Each strategy as one run uses it: discovery in handles mode keeps the run's live providers and offers
 * the handle tools of the classes known up front.
 */
function startDiscovery(
  strategies: readonly ToolInjectionStrategy[],
  tools: readonly AnyTool[],
  resolveProvider: ProviderResolver | undefined,
): RunDiscovery[] {
  return strategies.map((strategy) =>
    strategy instanceof ToolProviderStrategy
      ? strategy.forRun({
          classes: () => returnedProviderClasses(tools),
          takenNames: tools.map((t) => t.name),
          resolveProvider,
        })
      : { strategy, tools: [] },
  );
}

/**
 * What a resumed or continued run's first session starts with: its checked snapshot's calls, tools,
 * notices and the names it lost, and a continued conversation's new messages.
 */
async function resumeState(
  resume: ResumeFrom & { readonly live?: ReadonlyMap<string, object> },
  offered: readonly AnyTool[],
  handles: HandleDiscovery | undefined,
  signal: AbortSignal | undefined,
) {
  checkSnapshotTools(resume.snapshot, new Set(offered.map((t) => t.name)));
  const { tools, notices, lost } = await restoreTools(
    resume.snapshot,
    resume.resolveProvider,
    handles,
    resume.live,
    signal,
  );
  return { paused: resume.snapshot.paused, restored: tools, notices, lost, followUp: resume.followUp };
}

/**
 * One attempt. An error it throws counts the iterations of the attempts before it too, and carries a
 * snapshot of the run up to the failure, so it can be resumed.
 */
async function drive(
  adapter: ModelAdapter | ConversationAdapter,
  session: RunSession,
  earlier: number,
  snapshotOf: () => RunSnapshot,
  listener: StepListener | undefined,
) {
  try {
    return isConversationAdapter(adapter)
      ? await driveConversation(adapter, session)
      : await driveSteps(adapter, session, listener);
  } catch (error) {
    if (error instanceof ToolLoopError) {
      error.totalIterations += earlier;
      error.snapshot = snapshotOf();
    }
    throw error;
  }
}

/**
 * Every source's tools at the start of an attempt; tools a source lists but cannot offer are reported.
 *
 * @throws ToolSourceError when a source cannot be listed (down, not connected)
 * @throws ToolSourceClashError when a name is offered twice (by the runner's tools or another source)
 */
async function listSources(
  sources: readonly DynamicToolSource[],
  ownTools: readonly AnyTool[],
  signal: AbortSignal | undefined,
  events: RunEvents,
): Promise<SourceWithTools[]> {
  const owners = new Map(ownTools.map((t) => [t.name, "the runner's own tools"]));
  const listed: SourceWithTools[] = [];
  for (const source of sources) {
    const { tools, skipped } = await listSource(source, signal);
    for (const { toolName, reason } of skipped)
      events.emit({ type: "SourceToolSkipped", source: source.label, toolName, reason });
    for (const tool of tools) {
      const owner = owners.get(tool.name);
      if (owner) throw new ToolSourceClashError(tool.name, owner, source.label);
      owners.set(tool.name, source.label);
    }
    listed.push({ source, tools });
  }
  return listed;
}

/**
 * A run error raised before the attempt's first step (a source down or clashing) carries the conversation
 * as it stood and, for a resumed or continued run, the snapshot it came from, so it can be resumed later.
 */
function beforeFirstStep(
  error: unknown,
  setup: RunSetup,
  resume: CheckedResume | undefined,
  iterations: number,
) {
  if (!(error instanceof ToolLoopError)) return error;
  error.conversationHistory = resume ? [...resume.snapshot.history] : [...setup.messages];
  error.totalIterations = iterations;
  if (resume) error.snapshot = resume.snapshot;
  return error;
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
