import type { LanguageModel, ModelMessage } from "ai";
import { AiSdkAdapter, type AiSdkAdapterSettings } from "../adapters/ai-sdk-adapter.js";
import type { ConversationAdapter } from "../adapters/conversation-adapter.js";
import type { ModelAdapter } from "../adapters/model-adapter.js";
import { RunEvents } from "../events/run-events.js";
import type { ToolLoopObserver } from "../events/tool-loop-event.js";
import type { ToolLoopResult } from "../loop/tool-loop-result.js";
import type { PromptTemplate } from "../disclosure/prompt-template.js";
import type { PromptParams, VisibilityOverrides } from "../disclosure/section-visibility.js";
import type { VisibilitySnapshot } from "../disclosure/visibility-store.js";
import type { ToolMiddleware } from "../loop/tool-middleware.js";
import type { ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import { ToolProviderStrategy } from "../strategies/tool-provider-strategy.js";
import type { AnyTool } from "../tools/tool.js";
import { executeRun, type TemplatePrompt } from "./execute-run.js";
import { resolveOutput, type OutputTarget } from "./output-target.js";
import { toolsFrom, type ToolSource } from "./tool-sources.js";

/** How a runner reaches its model: an AI SDK model, or any adapter. */
export type PromptRunnerOptions =
  | { readonly model: LanguageModel; readonly modelSettings?: AiSdkAdapterSettings }
  | { readonly adapter: ModelAdapter | ConversationAdapter };

/** Options of {@link PromptRunner.withToolProviderDiscovery}. */
export interface DiscoveryOptions {
  /** Most injected tools offered at once (least recently used go first). Default 64. */
  readonly maxInjectedTools?: number;
}

/** Options of one run. */
export interface RunOptions<T> {
  /** Ask for a structured answer: a class (result is an instance) or a JSON Schema. */
  readonly output?: OutputTarget<T>;
  /** Cancels the run; the error thrown carries the conversation so far. */
  readonly signal?: AbortSignal;
  /** Section visibility to resume from (the `visibility` of an earlier result). */
  readonly visibility?: VisibilitySnapshot;
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
  readonly maxExpansions: number;
  readonly maxIterations: number;
  readonly maxInjectedTools: number;
  readonly maxOutputRepairs: number;
  readonly maxUnknownToolCalls: number;
  readonly toolTimeoutMs?: number;
  readonly maxResultChars?: number;
}

export const DEFAULT_MAX_ITERATIONS = 20;
export const DEFAULT_MAX_INJECTED_TOOLS = 64;
export const DEFAULT_MAX_EXPANSIONS = 10;

/** A runner configuration with every default, for `adapter`. */
export function defaultRunnerConfig(adapter: ModelAdapter | ConversationAdapter): RunnerConfig {
  return {
    adapter,
    tools: [],
    strategies: [],
    middleware: [],
    observers: [],
    visibilityOverrides: {},
    maxExpansions: DEFAULT_MAX_EXPANSIONS,
    maxIterations: DEFAULT_MAX_ITERATIONS,
    maxInjectedTools: DEFAULT_MAX_INJECTED_TOOLS,
    maxOutputRepairs: 2,
    maxUnknownToolCalls: 3,
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

  /** Turns on discovery: `@ToolProvider` instances returned by tools add their tools to the run. */
  withToolProviderDiscovery(options: DiscoveryOptions = {}): this {
    const others = this.config.strategies.filter((s) => !(s instanceof ToolProviderStrategy));
    return this.derive({
      strategies: [...others, new ToolProviderStrategy()],
      maxInjectedTools: options.maxInjectedTools ?? this.config.maxInjectedTools,
    });
  }

  /** Adds a strategy; strategies run in the order added, after every successful tool call. */
  withInjectionStrategy(strategy: ToolInjectionStrategy): this {
    return this.derive({ strategies: [...this.config.strategies, strategy] });
  }

  /** Most model calls per run (default 20); past it the run fails with `MaxIterationsExceededError`. */
  withMaxToolIterations(maxIterations: number): this {
    return this.derive({ maxIterations: positive(maxIterations, "maxIterations") });
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
    return this.derive({ maxExpansions: Math.max(0, Math.floor(maxExpansions)) });
  }

  /** Receives every event of every run. */
  withObserver(observer: ToolLoopObserver): this {
    return this.derive({ observers: [...this.config.observers, observer] });
  }

  /** Wraps every tool execution; the first added is the outermost. */
  withToolMiddleware(middleware: ToolMiddleware): this {
    return this.derive({ middleware: [...this.config.middleware, middleware] });
  }

  /** Time limit of each tool call; a call past it becomes an error result the model reads. */
  withToolTimeout(ms: number): this {
    return this.derive({ toolTimeoutMs: positive(ms, "ms") });
  }

  /** How many times an unusable final answer is sent back for repair (default 2). */
  withMaxOutputRepairs(repairs: number): this {
    return this.derive({ maxOutputRepairs: Math.max(0, Math.floor(repairs)) });
  }

  /** Longest tool result text sent to the model (default 16 000 characters). */
  withMaxResultChars(chars: number): this {
    return this.derive({ maxResultChars: positive(chars, "chars") });
  }

  /** Runs the prompt and returns the answer, with the conversation and what was injected. */
  async run<T = string>(
    prompt: string | readonly ModelMessage[],
    options: RunOptions<T> = {},
  ): Promise<ToolLoopResult<T>> {
    const output = options.output === undefined ? undefined : resolveOutput(options.output);
    const events = new RunEvents(this.config.observers);
    const messages: ModelMessage[] =
      typeof prompt === "string" ? [{ role: "user", content: prompt }] : [...prompt];
    const { adapter, system, visibilityOverrides, maxExpansions, ...loop } = this.config;
    const outcome = await executeRun(
      {
        adapter,
        loop,
        system,
        visibilityOverrides,
        maxExpansions,
        signal: options.signal,
        events,
        resumeFrom: options.visibility,
      },
      messages,
      output?.schema,
    );
    return {
      result: (output ? output.build(outcome.answer) : outcome.answer) as T,
      conversationHistory: outcome.history,
      totalIterations: outcome.iterations,
      injectedTools: outcome.injectedTools,
      counters: events.counters,
      visibility: outcome.visibility,
    };
  }

  /** Runs the prompt and returns the answer as an instance of `target` (or JSON of a schema). */
  async createObject<T>(
    target: OutputTarget<T>,
    prompt: string | readonly ModelMessage[],
    options: { signal?: AbortSignal } = {},
  ): Promise<T> {
    return (await this.run(prompt, { ...options, output: target })).result;
  }

  /** Runs the prompt and returns the model's final text. */
  async generateText(
    prompt: string | readonly ModelMessage[],
    options: { signal?: AbortSignal } = {},
  ): Promise<string> {
    return (await this.run<string>(prompt, options)).result;
  }

  /** A copy of this runner (of the same class) with part of the configuration replaced. */
  protected derive(patch: Partial<RunnerConfig>): this {
    const Self = this.constructor as new (options: PromptRunnerOptions, config: RunnerConfig) => this;
    return new Self({ adapter: this.config.adapter }, { ...this.config, ...patch });
  }
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}
