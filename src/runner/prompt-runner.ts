import type { ModelMessage } from "ai";
import { AiSdkAdapter } from "../adapters/ai-sdk-adapter.js";
import {
  McpClientToolSource,
  type McpClientLike,
  type McpClientOptions,
} from "../adapters/mcp-client-source.js";
import type { PromptTemplate } from "../disclosure/prompt-template.js";
import type { PromptParams, VisibilityOverrides } from "../disclosure/section-visibility.js";
import { type DebugLogger } from "../events/debug-log.js";
import type { Pricing } from "../events/pricing.js";
import type { ToolLoopObserver } from "../events/tool-loop-event.js";
import type { ToolMiddleware } from "../loop/execution/tool-middleware.js";
import type { ApprovalPredicate } from "../loop/execution/approval-gate.js";
import type { RunSnapshot } from "../loop/snapshot/run-snapshot.js";
import { snapshotKeys, type SnapshotKey } from "../loop/snapshot/snapshot-codec.js";
import type { ToolResultMediaTypes } from "../loop/results/media-types.js";
import type { ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import { toolsFrom, type ToolSource } from "../tools/tool-sources.js";
import type { TelemetryOptions } from "../telemetry/telemetry-options.js";
import { runLogTarget, type RunLogOptions } from "../run-log/run-log.js";
import { RunStream, withStreamStop } from "./run-stream.js";
import { type OutputTarget } from "./output-target.js";
import type { ToolLoopResult } from "./tool-loop-result.js";
import type { DiscoveryOptions, ResumeOptions, RunOptions } from "./runner-options.js";
import { RunnerLimits } from "./runner-limits.js";
import { completed, resumeOf, startOf } from "./run-start.js";
import { runPrompt } from "./run-prompt.js";
import { discoveryConfig } from "./discovery-config.js";

/**
 * Runs prompts through the framework-owned tool loop. Configuration only: every `with*` returns a new
 * runner and leaves this one unchanged, and each call builds a fresh loop, so one runner serves many
 * concurrent runs without sharing their tools or state. The limits of its runs (`withMaxToolIterations`,
 * `withMaxExpansions`, `withToolTimeout`, …) are {@link RunnerLimits}'.
 */
export class PromptRunner extends RunnerLimits {
  /** Adds tools: objects with `@LlmTool` methods (bound now, to those instances) or `defineTool` tools. */
  withTools(...sources: ToolSource[]): this {
    return this.derive({ tools: toolsFrom(sources, this.config.tools) });
  }

  /**
   * Turns on discovery: `@ToolProvider` instances returned by tools add their tools to the run, under
   * their own names (`binding: "per-instance"`, the default), or through handles (`binding: "handles"`:
   * one stable tool per class and method, the instance named by a handle argument). With
   * `delivery: "deferred"` (per-instance) the discovered tools reach an Anthropic Messages or OpenAI
   * Responses model in its provider's deferred form, so the cached front of each request never changes
   * (docs/deferred-delivery.md); other models get them inline, and a `ModelWarning` says so. Without a
   * `handleKey`, handles are signed with the process's random key: valid for every runner of this process.
   */
  withToolProviderDiscovery(options: DiscoveryOptions = {}): this {
    return this.derive(discoveryConfig(this.config, options));
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

  /** Adds a strategy; strategies run in the order added, after every tool call, failed ones included (see `ToolInjectionStrategy`). */
  withInjectionStrategy(strategy: ToolInjectionStrategy): this {
    return this.derive({ strategies: [...this.config.strategies, strategy] });
  }

  /** The system prompt, as plain text. */
  withSystemPrompt(system: string): this;
  /** The system prompt as a {@link PromptTemplate}, its `${name}` placeholders filled from `params`. */
  withSystemPrompt(template: PromptTemplate, params?: PromptParams): this;
  withSystemPrompt(system: string | PromptTemplate, params: PromptParams = {}): this {
    return this.derive({ system: typeof system === "string" ? system : { template: system, params } });
  }

  /** Caller-supplied section visibility (below a run's own overrides, above each section's default). */
  withVisibilityOverrides(overrides: VisibilityOverrides): this {
    return this.derive({ visibilityOverrides: { ...this.config.visibilityOverrides, ...overrides } });
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
   * Logs each run, resume and conversation turn in a JSON Lines file of its own in `dir`, written at each
   * step, for `npx entity-tools view` (docs/run-viewer.md). @throws RunLogError when `dir` cannot be written.
   */
  withRunLog(dir: string, options?: RunLogOptions): this {
    return this.derive({ runLog: runLogTarget(dir, options) });
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

  /**
   * The media the model takes in a tool result (`["image/png", "image/jpeg"]`; `[]` for text only), in place
   * of what the backend declares: for an AI SDK provider this library does not know. Other media parts
   * reach the model as a text description, with a `ModelWarning`.
   */
  withToolResultMediaTypes(types: ToolResultMediaTypes): this {
    const { adapter } = this.config;
    return this.derive({
      toolResultMediaTypes: [...types],
      // An AI SDK model given by id then takes them at every step, whatever model the id resolves to.
      ...(adapter instanceof AiSdkAdapter ? { adapter: adapter.withToolResultMediaTypes(types) } : {}),
    });
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
    return runPrompt(this.config, options, startOf(prompt, options));
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
   * @throws InvalidSettingError, before anything runs, for `approvals` holding a value that is not a
   * decision (`{ approved: "true" }`, `{}`, `null`).
   */
  async resume<T = string>(
    snapshot: RunSnapshot,
    options: ResumeOptions<T> = {},
  ): Promise<ToolLoopResult<T>> {
    return runPrompt(this.config, options, resumeOf(snapshot, options));
  }

  /**
   * {@link resume}, streaming: the same parts as {@link stream} (decided calls' results first, then the
   * run), and the same `result`.
   */
  resumeStream<T = string>(snapshot: RunSnapshot, options: ResumeOptions<T> = {}): RunStream<T> {
    return new RunStream<T>(
      (emit, stopped) =>
        withStreamStop(options, stopped, (joined) =>
          runPrompt(this.config, joined, resumeOf(snapshot, options), emit),
        ),
      options.signal,
    );
  }

  /**
   * Runs the prompt like {@link run}, streaming: `parts` reports text as the model writes it, tool calls,
   * their results, tool-set changes and step ends as they happen; `result` is the same `ToolLoopResult`.
   * The same executor, strategies and structured output as `run()`. Also speaks the AI SDK's UI message
   * stream protocol (`toUIMessageStreamResponse()`), so `useChat` can show a run as it goes.
   */
  stream<T = string>(prompt: string | readonly ModelMessage[], options: RunOptions<T> = {}): RunStream<T> {
    return new RunStream<T>(
      (emit, stopped) =>
        withStreamStop(options, stopped, (joined) =>
          runPrompt(this.config, joined, startOf(prompt, options), emit),
        ),
      options.signal,
    );
  }

  /** Runs the prompt and returns the answer as an instance of `target` (or JSON of a schema). */
  async createObject<T>(
    target: OutputTarget<T>,
    prompt: string | readonly ModelMessage[],
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<T> {
    return completed(await this.run(prompt, { ...options, output: target }));
  }

  /** Runs the prompt and returns the model's final text. */
  async generateText(
    prompt: string | readonly ModelMessage[],
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<string> {
    return completed(await this.run<string>(prompt, options));
  }
}
