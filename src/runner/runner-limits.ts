import { withSettings, type RunSettings } from "../loop/settings/run-settings.js";
import { initialRunnerConfig, type PromptRunnerOptions, type RunnerConfig } from "./runner-options.js";

/**
 * A runner's configuration, never changed in place, and the limits every run of it keeps (its
 * `RunSettings`: iterations, restarts, the tool budget, time and size limits): each `with*` returns a new
 * runner of the same class with part of the configuration replaced, a limit checked as it is given. The
 * base of {@link PromptRunner}, which adds what runs are made of and runs them: use that.
 */
export class RunnerLimits {
  /** The configuration, for subclasses (see `derive`). */ protected readonly config: RunnerConfig;

  constructor(options: PromptRunnerOptions, config?: RunnerConfig) {
    this.config = config ?? initialRunnerConfig(options);
  }

  /**
   * Most model calls per run (default 20); past it the run fails with `MaxIterationsExceededError`. A run's
   * restarts from the prompt, a backend's new thread and a paused run resumed go on counting; a continued
   * conversation's turn counts its own (the result's `totalIterations` counts the earlier turns' too).
   */
  withMaxToolIterations(maxIterations: number): this {
    return this.withSetting({ maxIterations }, "withMaxToolIterations(maxIterations)");
  }

  /**
   * Most times a run starts again from its prompt (default 10), for a section read on a backend without
   * dynamic tools or a strategy's `restart` (not a backend's new thread); past it, `ExpansionLimitError`.
   * A paused run resumed goes on counting (`RunSnapshot.expansions`); a continued conversation's turn counts its own.
   */
  withMaxExpansions(maxExpansions: number): this {
    return this.withSetting({ maxExpansions }, "withMaxExpansions(maxExpansions)");
  }

  /**
   * Most injected tools offered at once (default 64): discovered providers' tools and MCP servers' tools
   * joining mid-run; the least recently used go first. Same setting as `withToolProviderDiscovery`'s.
   */
  withMaxInjectedTools(maxInjectedTools: number): this {
    return this.withSetting({ maxInjectedTools }, "withMaxInjectedTools(maxInjectedTools)");
  }

  /** Most estimated definition tokens injected tools add to each request (unlimited by default). */
  withMaxInjectedTokens(maxInjectedTokens: number): this {
    return this.withSetting({ maxInjectedTokens }, "withMaxInjectedTokens(maxInjectedTokens)");
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

  /** Longest tool result text sent to the model (default 16 000 characters). */
  withMaxResultChars(chars: number): this {
    return this.withSetting({ maxResultChars: chars }, "withMaxResultChars(chars)");
  }

  /** Most bytes of media (decoded) in one tool result (default 20 000 000); past it, a part is described. */
  withMaxResultMediaBytes(bytes: number): this {
    return this.withSetting({ maxResultMediaBytes: bytes }, "withMaxResultMediaBytes(bytes)");
  }

  /** A copy with some settings changed; each value is checked (see `RunSettings`). */
  private withSetting(patch: Partial<RunSettings>, as: string): this {
    return this.derive({ settings: withSettings(this.config.settings, patch, as) });
  }

  /** A copy of this runner (of the same class) with part of the configuration replaced. */
  protected derive(patch: Partial<RunnerConfig>): this {
    const Self = this.constructor as new (options: PromptRunnerOptions, config: RunnerConfig) => this;
    return new Self({ adapter: this.config.adapter }, { ...this.config, ...patch });
  }
}
