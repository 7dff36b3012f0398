import type { ModelMessage } from "ai";
import { DisclosureSession } from "../disclosure/disclosure-session.js";
import type { PromptTemplate } from "../disclosure/prompt-template.js";
import type {
  PromptParams,
  VisibilityOverrides,
  VisibilitySnapshot,
} from "../disclosure/section-visibility.js";
import { VisibilityExpansionRequired } from "../disclosure/visibility-expansion-required.js";
import type { RunEvents } from "../events/run-events.js";
import type { TokenUsage } from "../events/token-usage.js";
import type { ApprovalPredicate, PendingApproval } from "../loop/execution/approval-gate.js";
import { driveConversation } from "../loop/drivers/conversation-driver.js";
import { isConversationAdapter, type ConversationAdapter } from "../loop/ports/conversation-port.js";
import type { ToolMiddleware } from "../loop/execution/tool-middleware.js";
import type { ToolResultMediaTypes } from "../loop/results/media-types.js";
import type { ModelAdapter } from "../loop/ports/model-port.js";
import { Run } from "../loop/run/run.js";
import { RunSession } from "../loop/session/run-session.js";
import type { RunSettings } from "../loop/settings/run-settings.js";
import type { RunSnapshot } from "../loop/snapshot/run-snapshot.js";
import { driveSteps, type StepListener } from "../loop/drivers/step-driver.js";
import type { DynamicToolSource } from "../loop/sources/tool-source-port.js";
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
import { applyBeforePause, applyExpansion, oneRestart } from "./apply-expansion.js";
import { listSources } from "./list-sources.js";
import { resumeState, type ResumeFrom } from "../loop/run/run-resume.js";
import { continuedRun } from "../loop/snapshot/continued-run.js";

/** A sectioned system prompt and its parameters. */
export interface TemplatePrompt {
  /** The template, rendered at each run's start and again after a restart. */
  readonly template: PromptTemplate;
  /** The values of its `${name}` placeholders. */
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
  /** A streamed run's listener: model parts as they arrive, and step ends. */
  readonly listener?: StepListener;
  /** Keys that sign every snapshot and that a snapshot read back must verify against (first one signs). */
  readonly snapshotKeys?: KeyRing;
  /** The media the model takes in a tool result, in place of the adapter's `toolResultMediaTypes`. */
  readonly toolResultMediaTypes?: ToolResultMediaTypes;
  /** The stored conversation the run is a turn of (`RunOptions.conversationId`). */
  readonly conversationId?: string | undefined;
}

/** A run's outcome across restarts: completed with an answer, or paused for approval. */
export interface RunOutcome {
  readonly status: "completed" | "awaiting-approval";
  readonly answer: unknown;
  readonly pending: readonly PendingApproval[];
  /** The history of the attempt that finished. */
  readonly history: ModelMessage[];
  /** Every tool the run added, in order (earlier attempts' and a resumed snapshot's included). */
  readonly injectedTools: readonly AnyTool[];
  /** Iterations and tokens of the whole run (restarts and a resumed snapshot's included). */
  readonly iterations: number;
  readonly usage: TokenUsage;
  readonly snapshot: RunSnapshot;
  readonly visibility: VisibilitySnapshot;
}

/**
 * Runs one prompt: the configuration wired into a {@link Run} (made first, so anything that fails has it),
 * then an attempt after another, each a run session driven by the driver of the adapter's kind. When an
 * attempt ends asking for a restart (a section read unlocked tools the backend cannot add
 * mid-conversation), the requested overrides are stored in the run and the prompt re-rendered, at most
 * `maxExpansions` times. The run keeps the totals and the injected tools across restarts; the history is
 * that of the attempt that finished.
 */
export async function executeRun(setup: RunSetup): Promise<RunOutcome> {
  await loadRuntimeDependencies(); // validation and class-transformer are not loaded at import
  const started = performance.now();
  const run = runOf(setup);
  const continues = setup.resume && continuedRun(setup.resume.snapshot);
  setup.events.emit({
    type: "RunStarted",
    resumed: setup.resume !== undefined,
    ...(continues === undefined ? {} : { continues }),
  });
  const finish = (status: "completed" | "awaiting-approval" | "failed", error?: Error) =>
    setup.events.emit({
      type: "RunFinished",
      status,
      ...(error ? { error } : {}),
      usage: run.totals.callUsage,
      totalIterations: run.totals.iterations,
      iterations: run.totals.iterations,
      durationMs: performance.now() - started,
      ...(setup.events.cost ? { cost: setup.events.cost, callCost: setup.events.callCost! } : {}),
    });
  try {
    const outcome = await runAttempts(setup, run);
    finish(outcome.status);
    return outcome;
  } catch (error) {
    finish("failed", error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

/**
 * The run a setup starts: a new one from the prompt, or the one its snapshot resumes.
 *
 * @throws SnapshotIntegrityError, SnapshotError for a snapshot that cannot be resumed, ConversationMismatchError
 */
function runOf(setup: RunSetup): Run {
  const init = {
    settings: setup.settings,
    events: setup.events,
    approval: setup.approval,
    keys: setup.snapshotKeys,
    conversationId: setup.conversationId,
  };
  return setup.resume
    ? Run.fromSnapshot(init, setup.resume)
    : Run.start(init, setup.messages, setup.resumeFrom);
}

async function runAttempts(setup: RunSetup, run: Run): Promise<RunOutcome> {
  checkToolSchemas({
    discovery: setup.strategies.some((s) => s instanceof ToolProviderStrategy),
    tools: setup.tools,
  });
  for (const decided of run.approvals.given) run.events.emit({ type: "ApprovalDecided", ...decided });
  for (let attempts = 0; ; attempts++) {
    const disclosure = disclosureFor(setup, run);
    const attempt = await startAttempt(setup, run, disclosure, attempts === 0).catch((error: unknown) =>
      Promise.reject(run.failBeforeStep(error, setup.signal)),
    );
    const session = new RunSession({
      run,
      system: disclosure ? disclosure.render() : (setup.system as string | undefined),
      sources: attempt.sources,
      strategies: disclosure ? [...attempt.strategies, disclosure] : attempt.strategies,
      middleware: setup.middleware,
      outputSchema: setup.outputSchema,
      signal: setup.signal,
      toolResultMediaTypes: setup.toolResultMediaTypes ?? setup.adapter.toolResultMediaTypes,
      onStepFinish: setup.listener?.onStepFinish,
      ...attempt.resumed,
    });
    const end = isConversationAdapter(setup.adapter)
      ? await driveConversation(setup.adapter, session, setup.listener)
      : await driveSteps(setup.adapter, session, setup.listener);
    if (end.type !== "restart") {
      if (end.type === "pause" && end.restarts) applyBeforePause(run, end.restarts, disclosure);
      for (const { approvalId, toolName, input, provider } of end.type === "pause" ? end.pending : [])
        setup.events.emit({
          type: "ApprovalRequested",
          approvalId,
          toolName,
          input,
          ...(provider && { provider }),
        });
      return {
        status: end.type === "final" ? "completed" : "awaiting-approval",
        answer: end.type === "final" ? end.answer : undefined,
        pending: end.type === "pause" ? end.pending : [],
        history: run.history,
        injectedTools: run.injectedTools,
        iterations: run.totals.iterations,
        usage: run.totals.usage,
        snapshot: run.toSnapshot(),
        visibility: run.visibility.snapshot(),
      };
    }
    const request = oneRestart(end.requests);
    const expansion = request instanceof VisibilityExpansionRequired ? request : undefined;
    // The run's restarts, a resumed run's before its pause included (see `TotalsBefore.expansions`).
    if (run.totals.expansions >= setup.settings.maxExpansions) {
      throw session.fail(
        new ExpansionLimitError(setup.settings.maxExpansions, expansion?.sectionKeys ?? [], request.reason),
      );
    }
    run.totals.countExpansion();
    setup.events.emit({
      type: "RunRestarted",
      reason: request.reason,
      ...(expansion
        ? { cause: "expansion", sections: expansion.sectionKeys, toolNames: expansion.unlockedTools }
        : { cause: "strategy" }),
    });
    applyExpansion(run, request, disclosure);
  }
}

/**
 * An attempt's start, before its first step: the sources listed, the run's discoveries (started on the
 * first attempt), the attempt's tools in the run and, for a resumed run's first attempt, its discovered
 * tools restored.
 *
 * @throws ToolSourceError, ToolSourceClashError (a source's tool named like one of the run's, a section's
 * included); DuplicateToolNameError when a section tool shares a name with a tool of the run or another
 * section's; SnapshotError when a resumed run lacks a tool it needs
 */
async function startAttempt(
  setup: RunSetup,
  run: Run,
  disclosure: DisclosureSession | undefined,
  first: boolean,
) {
  // A resumed run's waiting calls are answered in this attempt (a `read_section` among them too).
  const waiting = run.pending.flatMap((g) => g.calls);
  // Every tool a section can unlock is checked against the run's and the sources' now, before any step.
  const sectionTools = disclosure ? toolsFrom(disclosure.everyTool(), setup.tools) : setup.tools;
  const ownTools = disclosure ? toolsFrom(disclosure.initialTools(waiting), setup.tools) : setup.tools;
  const sources = await listSources(setup.sources, sectionTools, setup.signal, setup.events);
  const listed = [...ownTools, ...sources.flatMap((s) => s.tools)];
  const discoveries = run.discover(() => startDiscovery(setup, run, listed));
  const tools = [...listed, ...discoveries.flatMap((d) => d.tools)];
  const resumed =
    first && run.resumed
      ? await resumeState(
          run.resumed,
          setup.resume?.resolveProvider,
          tools,
          discoveries.find((d) => d.handles)?.handles,
          setup.signal,
          discoveries.find((d) => d.delivery)?.delivery,
        )
      : undefined;
  run.startAttempt(tools, resumed?.restored);
  for (const { toolNames, cause } of resumed?.unrestored ?? [])
    run.events.emit({
      type: "ToolsRemoved",
      toolNames,
      reason: "unrestored",
      ...(cause === undefined ? {} : { cause }),
    });
  const strategies = discoveries.map((d) => d.strategy);
  return {
    sources,
    strategies,
    resumed: resumed && { notices: resumed.notices, lost: resumed.lost, followUp: resumed.followUp },
  };
}

/**
 * Each strategy as one run uses it: discovery in handles mode keeps the run's live providers (a resumed
 * run's live ones answer first) and offers the handle tools of the classes known up front.
 */
function startDiscovery(setup: RunSetup, run: Run, tools: readonly AnyTool[]): RunDiscovery[] {
  return setup.strategies.map((strategy) =>
    strategy instanceof ToolProviderStrategy
      ? strategy.forRun({
          classes: () => returnedProviderClasses(tools),
          takenNames: tools.map((t) => t.name),
          resolveProvider: setup.resume?.resolveProvider,
          live: run.resumed?.live,
        })
      : { strategy, tools: [] },
  );
}

function disclosureFor(setup: RunSetup, run: Run): DisclosureSession | undefined {
  if (setup.system === undefined || typeof setup.system === "string") return undefined;
  const { template, params } = setup.system;
  return new DisclosureSession(
    template,
    params,
    setup.visibilityOverrides,
    run.visibility,
    setup.adapter.supportsDynamicTools,
    setup.events,
  );
}
