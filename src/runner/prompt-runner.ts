import type { LanguageModel, ModelMessage } from "ai";
import { AiSdkAdapter, type AiSdkAdapterSettings } from "../adapters/ai-sdk-adapter.js";
import {
  McpClientToolSource,
  type McpClientLike,
  type McpClientOptions,
} from "../adapters/mcp-client-source.js";
import type { DynamicToolSource } from "../loop/tool-source-port.js";
import type { PromptTemplate } from "../disclosure/prompt-template.js";
import type { PromptParams, VisibilityOverrides } from "../disclosure/section-visibility.js";
import type { VisibilitySnapshot } from "../disclosure/visibility-store.js";
import { debugLogObserver, STDERR_LOGGER, type DebugLogger } from "../events/debug-log.js";
import type { Pricing } from "../events/pricing.js";
import { RunEvents } from "../events/run-events.js";
import type { ToolLoopObserver } from "../events/tool-loop-event.js";
import type { ConversationAdapter } from "../loop/conversation-port.js";
import type { ToolMiddleware } from "../loop/execution/tool-middleware.js";
import type { ModelAdapter } from "../loop/model-port.js";
import type { ApprovalDecision, ApprovalPredicate } from "../loop/approval-gate.js";
import { DEFAULT_RUN_SETTINGS, withSettings, type RunSettings } from "../loop/run-settings.js";
import type { RunSnapshot } from "../loop/run-snapshot.js";
import { snapshotKeys, type SnapshotKey } from "../loop/snapshot-codec.js";
import type { ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import { ToolProviderStrategy, type ProviderBindingOptions } from "../strategies/tool-provider-strategy.js";
import type { AnyTool } from "../tools/tool.js";
import { toolsFrom, type ToolSource } from "../tools/tool-sources.js";
import { runTelemetry } from "../telemetry/run-telemetry.js";
import type { TelemetryOptions } from "../telemetry/telemetry-options.js";
import { ApprovalRequiredError } from "./approval-required-error.js";
import { executeRun, type RunSetup, type TemplatePrompt } from "./execute-run.js";
import type { ProviderResolver } from "./restore-tools.js";
import { RunStream, type StreamHooks } from "./run-stream.js";
import { resolveOutput, type OutputTarget } from "./output-target.js";
import type { ToolLoopResult } from "./tool-loop-result.js";

/** How a runner reaches its model: an AI SDK model, or any adapter. */
export type PromptRunnerOptions =
  | { readonly model: LanguageModel; readonly modelSettings?: AiSdkAdapterSettings }
  | { readonly adapter: ModelAdapter | ConversationAdapter };

/**
 * Options of {@link PromptRunner.withToolProviderDiscovery}: the tool budget, and how discovered
 * providers are reached (`binding`, default `"per-instance"`; see `ProviderBindingOptions`).
 */
export interface DiscoveryOptions extends ProviderBindingOptions {
  /** Most injected tools offered at once (least recently used go first). Default 64. */
  readonly maxInjectedTools?: number;
  /**
   * Most definition tokens (estimated: characters / 4 of name, description and schema) the injected tools
   * may add to each request; least recently used go first, as for `maxInjectedTools`. Unlimited by default.
   */
  readonly maxInjectedTokens?: number;
}

/** Options of one run. */
export interface RunOptions<T> {
  /** Ask for a structured answer: a class (result is an instance) or a JSON Schema. */
  readonly output?: OutputTarget<T>;
  /** Cancels the run; the error thrown carries the conversation so far. */
  readonly signal?: AbortSignal;
  /** Section visibility to resume from (the `visibility` of an earlier result). */
  readonly visibility?: VisibilitySnapshot;
  /**
   * Continue this conversation (the `snapshot` of a completed or paused run, from this process or
   * another) with the prompt as the next user message: its history, discovered tools, section visibility
   * and counters carry over. Calls the snapshot left waiting for a decision are not run (the model reads
   * why); decide them with `resume` instead.
   */
  readonly continueFrom?: RunSnapshot;
  /**
   * With `continueFrom`: returns the provider of a discovered tool, by class (source name) and id, sync or
   * async. Not needed for a snapshot of a run of this process: its providers are re-bound as they are.
   */
  readonly resolveProvider?: ProviderResolver;
}

/** Options of {@link PromptRunner.resume}. */
export interface ResumeOptions<T> extends Omit<RunOptions<T>, "visibility" | "continueFrom"> {
  /**
   * Decisions on the snapshot's pending calls, by `approvalId`. Each applies once, to the call the
   * snapshot left waiting with that id (same tool, same input); an id that was not waiting decides
   * nothing. Undecided calls pause the run again.
   */
  readonly approvals?: Readonly<Record<string, ApprovalDecision>>;
  /**
   * Returns the provider of a discovered tool, by class (source name) and id (with its own type); sync
   * or async. Not needed for a snapshot of a run of this process: its providers are re-bound as they
   * are. Another class's object, or one with another id, is refused (the model is told).
   */
  readonly resolveProvider?: ProviderResolver;
}

/** The runner's configuration; every `with*` makes a changed copy. */
export interface RunnerConfig {
  readonly adapter: ModelAdapter | ConversationAdapter;
  readonly tools: readonly AnyTool[];
  readonly strategies: readonly ToolInjectionStrategy[];
  readonly middleware: readonly ToolMiddleware[];
  readonly observers: readonly ToolLoopObserver[];
  readonly system?: string | TemplatePrompt;
  readonly visibilityOverrides: VisibilityOverrides;
  readonly settings: RunSettings;
  readonly sources: readonly DynamicToolSource[];
  readonly approval?: ApprovalPredicate;
  readonly telemetry?: TelemetryOptions;
  readonly pricing?: Pricing;
  readonly logger?: DebugLogger;
  /** Keys that sign snapshots and verify those read back (the first signs). */
  readonly snapshotKeys?: readonly Buffer[];
}

/** Default of `withMaxToolIterations`: model responses (steps) per run. */
export const DEFAULT_MAX_ITERATIONS = DEFAULT_RUN_SETTINGS.maxIterations;
/** Default of `maxInjectedTools` (`withToolProviderDiscovery`): injected tools offered at once. */
export const DEFAULT_MAX_INJECTED_TOOLS = DEFAULT_RUN_SETTINGS.maxInjectedTools;
/** Default of `withMaxExpansions`: restarts per run for section expansions. */
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

/**
 * Runs prompts through the framework-owned tool loop. Configuration only: every `with*` returns a new
 * runner and leaves this one unchanged, and each call builds a fresh loop, so one runner serves many
 * concurrent runs without sharing their tools or state.
 */
export class PromptRunner {
  protected readonly config: RunnerConfig;

  constructor(options: PromptRunnerOptions, config?: RunnerConfig) {
    this.config =
      config ??
      defaultRunnerConfig(
        "adapter" in options ? options.adapter : new AiSdkAdapter(options.model, options.modelSettings),
      );
  }

  /** Adds tools: objects with `@LlmTool` methods (bound now, to those instances) or `defineTool` tools. */
  withTools(...sources: ToolSource[]): this {
    return this.derive({ tools: toolsFrom(sources, this.config.tools) });
  }

  /**
   * Turns on discovery: `@ToolProvider` instances returned by tools add their tools to the run, under
   * their own names (`binding: "per-instance"`, the default), or through handles (`binding: "handles"`:
   * one stable tool per class and method, the instance named by a handle argument). Without a
   * `handleKey`, handles are signed with a random key drawn here, valid only for this runner.
   */
  withToolProviderDiscovery(options: DiscoveryOptions = {}): this {
    const others = this.config.strategies.filter((s) => !(s instanceof ToolProviderStrategy));
    const { maxInjectedTools: _tools, maxInjectedTokens: _tokens, ...binding } = options;
    return this.derive({
      strategies: [...others, new ToolProviderStrategy(binding)],
      settings: withSettings(this.config.settings, {
        maxInjectedTools: options.maxInjectedTools,
        maxInjectedTokens: options.maxInjectedTokens,
      }),
    });
  }

  /**
   * Adds the tools of an MCP server, through a connected client of the official SDK (v1
   * `@modelcontextprotocol/sdk` or v2 `@modelcontextprotocol/client`; either protocol revision): they
   * join every run under names that obey the naming contract (`options.prefix` first, when given), calls
   * go to the server under its own names, and when it announces a change (on 2026-07-28 through a
   * `subscriptions/listen` stream) or its list's `ttlMs` passes, the run re-lists them and injects,
   * replaces or removes tools between steps. A name offered twice at the start of a run is a
   * `ToolSourceClashError`; later, the name stays with whoever had it and the newcomer is reported
   * (`SourceToolSkipped`). A server that cannot be listed fails the run with `ToolSourceError`.
   */
  withMcpClient(client: McpClientLike, options?: McpClientOptions): this {
    return this.derive({ sources: [...this.config.sources, new McpClientToolSource(client, options)] });
  }

  /**
   * Calls this predicate picks (besides tools marked `@LlmTool({ needsApproval: true })`) need a person's
   * approval: the run stops before them with `status: "awaiting-approval"`.
   */
  withApproval(predicate: ApprovalPredicate): this {
    return this.derive({ approval: predicate });
  }

  /** Adds a strategy; strategies run in the order added, after every successful tool call. */
  withInjectionStrategy(strategy: ToolInjectionStrategy): this {
    return this.derive({ strategies: [...this.config.strategies, strategy] });
  }

  /** Most model calls per run (default 20); past it the run fails with `MaxIterationsExceededError`. */
  withMaxToolIterations(maxIterations: number): this {
    return this.withSetting({ maxIterations }, "withMaxToolIterations(maxIterations)");
  }

  /**
   * The system prompt: plain text, or a {@link PromptTemplate} whose `${name}` placeholders are filled
   * from `params` and whose summarized sections the model reads with `read_section`.
   */
  withSystemPrompt(system: string): this;
  withSystemPrompt(template: PromptTemplate, params?: PromptParams): this;
  withSystemPrompt(system: string | PromptTemplate, params: PromptParams = {}): this {
    return this.derive({ system: typeof system === "string" ? system : { template: system, params } });
  }

  /** Caller-supplied section visibility (below a run's own overrides, above each section's default). */
  withVisibilityOverrides(overrides: VisibilityOverrides): this {
    return this.derive({ visibilityOverrides: { ...this.config.visibilityOverrides, ...overrides } });
  }

  /** Most restarts per run for section expansions on backends without dynamic tools (default 10). */
  withMaxExpansions(maxExpansions: number): this {
    return this.withSetting({ maxExpansions }, "withMaxExpansions(maxExpansions)");
  }

  /** Receives every event of every run. */
  withObserver(observer: ToolLoopObserver): this {
    return this.derive({ observers: [...this.config.observers, observer] });
  }

  /**
   * Records every run as OpenTelemetry spans (`entity_tools.run`, a `chat` span per model call, an
   * `execute_tool` span per tool call, tool-set changes as span events), through `@opentelemetry/api`'s
   * global tracer provider or the `tracer` given. `@opentelemetry/api` is an optional peer dependency,
   * loaded when the first such run starts. Arguments and results are recorded only with `recordContent`.
   */
  withTelemetry(options: TelemetryOptions = {}): this {
    return this.derive({ telemetry: options });
  }

  /**
   * Prices in USD per million tokens (one table, or a function of the model id): every result then has a
   * `cost` with the total, each step's cost, and what each discovered provider's tools and calls added.
   */
  withPricing(pricing: Pricing): this {
    return this.derive({ pricing });
  }

  /**
   * Logs each step, tool-set change and error of every run in one line (as `ENTITY_TOOLS_DEBUG=1` does to
   * standard error). Nothing is logged by default.
   */
  withLogger(logger: DebugLogger): this {
    return this.derive({ logger });
  }

  /** Wraps every tool execution; the first added is the outermost. */
  withToolMiddleware(middleware: ToolMiddleware): this {
    return this.derive({ middleware: [...this.config.middleware, middleware] });
  }

  /** Time limit of each tool call; a call past it becomes an error result the model reads. */
  withToolTimeout(ms: number): this {
    return this.withSetting({ toolTimeoutMs: ms }, "withToolTimeout(ms)");
  }

  /**
   * Unknown tools the model may call in a row (default 3) before the run fails with `ToolNotFoundError`;
   * each one before that is an error result naming the closest tools.
   */
  withMaxUnknownToolCalls(maxUnknownToolCalls: number): this {
    return this.withSetting({ maxUnknownToolCalls }, "withMaxUnknownToolCalls(maxUnknownToolCalls)");
  }

  /** How many times an unusable final answer is sent back for repair (default 2). */
  withMaxOutputRepairs(repairs: number): this {
    return this.withSetting({ maxOutputRepairs: repairs }, "withMaxOutputRepairs(repairs)");
  }

  /**
   * Signs every snapshot this runner hands out (HMAC-SHA-256 over its canonical JSON form), and makes
   * `resume` and `continueFrom` refuse, with `SnapshotIntegrityError` and before anything runs, a snapshot
   * that is unsigned, altered, truncated or signed with another key. A list rotates keys: the first signs,
   * any verifies.
   *
   * @throws InvalidSettingError for no key (an unset environment variable) or one shorter than 16 bytes.
   */
  withSnapshotKey(key: SnapshotKey | readonly SnapshotKey[] | undefined): this {
    return this.derive({ snapshotKeys: snapshotKeys(key) });
  }

  /** Longest tool result text sent to the model (default 16 000 characters). */
  withMaxResultChars(chars: number): this {
    return this.withSetting({ maxResultChars: chars }, "withMaxResultChars(chars)");
  }

  /**
   * Runs the prompt and returns the answer, with the conversation, what was injected, and a snapshot.
   * A run that reaches a call needing approval stops before it: `status: "awaiting-approval"`, the
   * calls in `pendingApprovals`, and `result` undefined; go on with {@link resume}.
   */
  async run<T = string>(
    prompt: string | readonly ModelMessage[],
    options: RunOptions<T> = {},
  ): Promise<ToolLoopResult<T>> {
    return this.execute(options, startOf(prompt, options));
  }

  /**
   * Goes on with a run from its snapshot (`run.snapshot`, or the `snapshot` of a `ToolLoopError`), in this
   * runner or another process's: discovered tools are bound again to the objects `resolveProvider`
   * returns (a provider it cannot return is reported to the model, not a crash), decided calls run
   * (approved, once) or get an error result (denied, with the reason), and the run continues with this
   * runner's own settings, strategies and model.
   *
   * @throws SnapshotError, before anything runs, for a snapshot that is not a valid run snapshot of this
   * format version (checked whole, against its JSON schema) or one whose tools this runner does not offer.
   */
  async resume<T = string>(
    snapshot: RunSnapshot,
    options: ResumeOptions<T> = {},
  ): Promise<ToolLoopResult<T>> {
    return this.execute(options, resumeOf(snapshot, options));
  }

  /**
   * {@link resume}, streaming: the same parts as {@link stream} (decided calls' results first, then the
   * run), and the same `result`.
   */
  resumeStream<T = string>(snapshot: RunSnapshot, options: ResumeOptions<T> = {}): RunStream<T> {
    return new RunStream<T>((hooks) => this.execute(options, resumeOf(snapshot, options), hooks));
  }

  /**
   * Runs the prompt like {@link run}, streaming: `parts` reports text as the model writes it, tool calls,
   * their results, tool-set changes and step ends as they happen; `result` is the same `ToolLoopResult`.
   * The same executor, strategies and structured output as `run()`. Also speaks the AI SDK's UI message
   * stream protocol (`toUIMessageStreamResponse()`), so `useChat` can show a run as it goes.
   */
  stream<T = string>(prompt: string | readonly ModelMessage[], options: RunOptions<T> = {}): RunStream<T> {
    return new RunStream<T>((hooks) => this.execute(options, startOf(prompt, options), hooks));
  }

  /** Runs the prompt and returns the answer as an instance of `target` (or JSON of a schema). */
  async createObject<T>(
    target: OutputTarget<T>,
    prompt: string | readonly ModelMessage[],
    options: { signal?: AbortSignal } = {},
  ): Promise<T> {
    return completed(await this.run(prompt, { ...options, output: target }));
  }

  /** Runs the prompt and returns the model's final text. */
  async generateText(
    prompt: string | readonly ModelMessage[],
    options: { signal?: AbortSignal } = {},
  ): Promise<string> {
    return completed(await this.run<string>(prompt, options));
  }

  private async execute<T>(
    options: RunOptions<T>,
    start: RunStart,
    stream?: StreamHooks,
  ): Promise<ToolLoopResult<T>> {
    const output = options.output === undefined ? undefined : resolveOutput(options.output);
    const { telemetry, logger, observers, pricing } = this.config;
    const traced = telemetry && (await runTelemetry(telemetry));
    const log = logger ?? (process.env["ENTITY_TOOLS_DEBUG"] === "1" ? STDERR_LOGGER : undefined);
    // The runner's observers, then telemetry, the debug log and the stream's.
    const events = new RunEvents(
      [
        ...observers,
        ...(traced ? [traced.observe] : []),
        ...(log ? [debugLogObserver(log)] : []),
        ...(stream ? [stream.observe] : []),
      ],
      { pricing, scope: traced?.scope },
    );
    const { observers: _observers, ...config } = this.config;
    const outcome = await executeRun({
      ...config,
      ...start,
      listener: stream?.listener,
      outputSchema: output?.schema,
      signal: options.signal,
      events,
    });
    const common = {
      pendingApprovals: outcome.pending,
      snapshot: outcome.snapshot,
      // A copy: the run's own array keys what the model adapter keeps for the run (its converted prompt),
      // which a caller holding the result would otherwise keep alive.
      conversationHistory: [...outcome.history],
      totalIterations: outcome.iterations,
      injectedTools: outcome.injectedTools,
      usage: outcome.usage,
      counters: events.counters,
      visibility: outcome.visibility,
      ...(events.cost ? { cost: events.cost } : {}),
    };
    if (outcome.status !== "completed") return { ...common, status: outcome.status };
    return {
      ...common,
      status: "completed",
      result: (output ? output.build(outcome.answer) : outcome.answer) as T,
    };
  }

  /** A copy with some settings changed; each value is checked (see `RunSettings`). */
  private withSetting(patch: Partial<RunSettings>, as: string): this {
    // One setting per builder: a bad value is reported as the caller wrote it (`withToolTimeout(ms)`).
    const names = Object.fromEntries(Object.keys(patch).map((key) => [key, as]));
    return this.derive({ settings: withSettings(this.config.settings, patch, names) });
  }

  /** A copy of this runner (of the same class) with part of the configuration replaced. */
  protected derive(patch: Partial<RunnerConfig>): this {
    const Self = this.constructor as new (options: PromptRunnerOptions, config: RunnerConfig) => this;
    return new Self({ adapter: this.config.adapter }, { ...this.config, ...patch });
  }
}

type RunStart = Pick<RunSetup, "messages" | "resumeFrom" | "resume">;

/** Where a run starts: from the prompt, or from `continueFrom`'s snapshot with the prompt as its next message. */
function startOf(prompt: string | readonly ModelMessage[], options: RunOptions<unknown>): RunStart {
  const messages: ModelMessage[] =
    typeof prompt === "string" ? [{ role: "user", content: prompt }] : [...prompt];
  if (options.continueFrom === undefined) return { messages, resumeFrom: options.visibility };
  return {
    messages: [],
    resume: {
      snapshot: options.continueFrom,
      approvals: {},
      resolveProvider: options.resolveProvider,
      followUp: messages,
    },
  };
}

function resumeOf(snapshot: RunSnapshot, options: ResumeOptions<unknown>): RunStart {
  return {
    messages: [],
    resume: { snapshot, approvals: options.approvals ?? {}, resolveProvider: options.resolveProvider },
  };
}

/** A run's answer, or the typed error of a run that is waiting for approval. */
function completed<T>(run: ToolLoopResult<T>): T {
  if (run.status === "awaiting-approval") throw new ApprovalRequiredError(run);
  return run.result;
}
