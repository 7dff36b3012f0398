// The runner's configuration and the options of one run: what `PromptRunner` holds and takes.
import type { LanguageModel } from "ai";
import { AiSdkAdapter, type AiSdkAdapterSettings } from "../adapters/ai-sdk-adapter.js";

import type { VisibilityOverrides } from "../disclosure/section-visibility.js";
import type { VisibilitySnapshot } from "../disclosure/section-visibility.js";
import type { DebugLogger } from "../events/debug-log.js";
import type { Pricing } from "../events/pricing.js";
import type { ToolLoopObserver } from "../events/tool-loop-event.js";
import type { ApprovalDecision, ApprovalPredicate } from "../loop/execution/approval-gate.js";
import type { ConversationAdapter } from "../loop/ports/conversation-port.js";
import type { ToolMiddleware } from "../loop/execution/tool-middleware.js";
import type { ToolResultMediaTypes } from "../loop/results/media-types.js";
import type { ModelAdapter } from "../loop/ports/model-port.js";
import { DEFAULT_RUN_SETTINGS, type RunSettings } from "../loop/settings/run-settings.js";
import type { RunSnapshot } from "../loop/snapshot/run-snapshot.js";
import type { DynamicToolSource } from "../loop/sources/tool-source-port.js";
import type { ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import type { ProviderBindingOptions } from "../strategies/tool-provider-strategy.js";
import type { ResolvedRunLogTarget } from "../run-log/run-log-options.js";
import type { TelemetryOptions } from "../telemetry/telemetry-options.js";
import type { KeyRing } from "../tools/signing-key.js";
import type { AnyTool } from "../tools/tool.js";
import type { TemplatePrompt } from "./execute-run.js";
import type { ProviderResolver } from "../loop/run/restore-tools.js";
import type { OutputTarget } from "./output-target.js";

/** How a runner reaches its model: an AI SDK model, or any adapter. */
export type PromptRunnerOptions =
  | { readonly model: LanguageModel; readonly modelSettings?: AiSdkAdapterSettings | undefined }
  | { readonly adapter: ModelAdapter | ConversationAdapter };

/**
 * Options of {@link PromptRunner.withToolProviderDiscovery}: the tool budget, and how discovered
 * providers are reached (`binding`, default `"per-instance"`; see `ProviderBindingOptions`).
 */
export interface DiscoveryOptions extends ProviderBindingOptions {
  /** Most injected tools offered at once (least recently used go first). Default 64. */
  readonly maxInjectedTools?: number | undefined;
  /**
   * Most definition tokens (estimated: characters / 4 of name, description and schema) the injected tools
   * may add to each request; least recently used go first, as for `maxInjectedTools`. Unlimited by default.
   */
  readonly maxInjectedTokens?: number | undefined;
}

/** Options of one run. */
export interface RunOptions<T> {
  /** Ask for a structured answer: a class (result is an instance) or a JSON Schema. */
  readonly output?: OutputTarget<T> | undefined;
  /** Cancels the run; the error thrown carries the conversation so far. */
  readonly signal?: AbortSignal | undefined;
  /** Section visibility to resume from (the `visibility` of an earlier result). */
  readonly visibility?: VisibilitySnapshot | undefined;
  /**
   * Continue this conversation (the `snapshot` of a completed or paused run, from this process or
   * another) with the prompt as the next user message: its history, discovered tools, section visibility
   * and counters carry over. Calls the snapshot left waiting for a decision are not run (the model reads
   * why); decide them with `resume` instead. `undefined` (a new conversation's first turn, whose stored
   * snapshot is `undefined`) starts a new run, as when absent.
   */
  readonly continueFrom?: RunSnapshot | undefined;
  /**
   * With `continueFrom`: returns the provider of a discovered tool, by class (source name) and id, sync or
   * async. Not needed for a snapshot of a run of this process: its providers are re-bound as they are.
   */
  readonly resolveProvider?: ProviderResolver | undefined;
  /**
   * The stored conversation this run is a turn of: the id given to `beginConversationTurn`. Its snapshots
   * name it (`RunSnapshot.conversationId`), so another conversation's turn cannot save them, and its run log
   * header too; a `continueFrom` (or resumed) snapshot of another conversation is refused with
   * `ConversationMismatchError` before anything runs (a key mixed up never merges two conversations).
   * Without it, a run's snapshots name the conversation of the snapshot it goes on from, if any.
   */
  readonly conversationId?: string | undefined;
}

/** Options of {@link PromptRunner.resume}. */
export interface ResumeOptions<T> extends Omit<RunOptions<T>, "visibility" | "continueFrom"> {
  /**
   * Decisions on the snapshot's pending calls, by `approvalId`. Each applies once, to the call the
   * snapshot left waiting with that id (same tool, same input); an id that was not waiting decides
   * nothing. Undecided calls pause the run again.
   */
  readonly approvals?: Readonly<Record<string, ApprovalDecision>> | undefined;
  /**
   * Returns the provider of a discovered tool, by class (source name) and id (with its own type); sync
   * or async. Not needed for a snapshot of a run of this process: its providers are re-bound as they
   * are. Another class's object, or one with another id, is refused (the model is told).
   */
  readonly resolveProvider?: ProviderResolver | undefined;
}

/** The runner's configuration; every `with*` makes a changed copy. */
export interface RunnerConfig {
  /** The model backend: a step backend (`ModelAdapter`) or a conversation backend (`ConversationAdapter`). */
  readonly adapter: ModelAdapter | ConversationAdapter;
  /** The tools every run starts with (`withTools`). */
  readonly tools: readonly AnyTool[];
  /** Run after each call to add or remove tools (`withInjectionStrategy`, `withToolProviderDiscovery`). */
  readonly strategies: readonly ToolInjectionStrategy[];
  /** Wrappers around every tool call, outermost first (`withToolMiddleware`). */
  readonly middleware: readonly ToolMiddleware[];
  /** Receive every event of every run (`withObserver`). */
  readonly observers: readonly ToolLoopObserver[];
  /** The system prompt (`withSystemPrompt`): text, or a template with its parameters; absent: none. */
  readonly system?: string | TemplatePrompt;
  /** Section visibility the caller set (`withVisibilityOverrides`). */
  readonly visibilityOverrides: VisibilityOverrides;
  /** Limits and timeouts of every run (`withMaxToolIterations`, `withToolTimeout`, …), each checked. */
  readonly settings: RunSettings;
  /** Dynamic tool sources listed at each run's start and between steps (`withMcpClient`). */
  readonly sources: readonly DynamicToolSource[];
  /** Picks the calls that wait for a person, besides tools marked `needsApproval` (`withApproval`). */
  readonly approval?: ApprovalPredicate;
  /** OpenTelemetry spans for each run (`withTelemetry`); absent: none. */
  readonly telemetry?: TelemetryOptions;
  /** Where each run is logged (`withRunLog`): its folder checked, every option's default filled in. */
  readonly runLog?: ResolvedRunLogTarget;
  /** Prices that turn tokens into USD (`withPricing`); absent: no cost is reported. */
  readonly pricing?: Pricing;
  /** Receives the debug log, one line per step, change or error (`withLogger`); absent: none. */
  readonly logger?: DebugLogger;
  /** Keys that sign snapshots and verify those read back (the first signs). */
  readonly snapshotKeys?: KeyRing;
  /** The media the model takes in a tool result, in place of what the backend declares. */
  readonly toolResultMediaTypes?: ToolResultMediaTypes;
}

/** Default of `withMaxToolIterations`: model responses (steps) per run. */
export const DEFAULT_MAX_ITERATIONS = DEFAULT_RUN_SETTINGS.maxIterations;
/** Default of `maxInjectedTools` (`withToolProviderDiscovery`): injected tools offered at once. */
export const DEFAULT_MAX_INJECTED_TOOLS = DEFAULT_RUN_SETTINGS.maxInjectedTools;
/** Default of `withMaxExpansions`: restarts from the prompt per run (section reads, strategies' `restart`). */
export const DEFAULT_MAX_EXPANSIONS = DEFAULT_RUN_SETTINGS.maxExpansions;

/** A runner configuration with every default, for `adapter`. */
export function defaultRunnerConfig(adapter: ModelAdapter | ConversationAdapter): RunnerConfig {
  return {
    adapter,
    tools: [],
    strategies: [],
    middleware: [],
    observers: [],
    visibilityOverrides: {},
    settings: DEFAULT_RUN_SETTINGS,
    sources: [],
  };
}

/** The configuration a new runner starts with: every default, and the adapter `options` give or make. */
export function initialRunnerConfig(options: PromptRunnerOptions): RunnerConfig {
  return defaultRunnerConfig(
    "adapter" in options ? options.adapter : new AiSdkAdapter(options.model, options.modelSettings),
  );
}
