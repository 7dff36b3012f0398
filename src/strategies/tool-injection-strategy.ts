import type { ModelMessage } from "ai";
import type { ProviderIdentity } from "../tools/provider-identity.js";
import type { AnyTool } from "../tools/tool.js";
import type { ToolBudgetCheck } from "../tools/tool-budget.js";

/**
 * The tool call a strategy is asked about: one that returned, or one of a known tool that ended in an
 * error result the model reads (`isError`: its input was refused, it was not approved, it threw, timed
 * out, or its result could not be read).
 */
export interface LastToolCall {
  /** The tool that was called, by name. */
  readonly toolName: string;
  /**
   * The input the tool ran with, validated against its schema; for a call whose input was refused, the
   * input as the model gave it (any JSON value, or a string it could not parse).
   */
  readonly toolInput: unknown;
  /**
   * The text the model reads: the tool's result text (media parts named in it), or for a failed call the
   * error text. It is that text before the strategies' notices: those any strategy appends (the handle
   * notice in handles mode, a skipped provider's) are not in it, so every strategy reads the same text,
   * the tool's own (JSON stays parseable). `ToolInvoked.resultText` has the notices.
   */
  readonly result: string;
  /** The live value the tool returned (not a re-parse of `result`); `undefined` for a failed call. */
  readonly resultObject: unknown;
  /**
   * `true` when the call failed and `result` is the error text the model reads (the same name as a
   * stream's `tool-result` part's). The run always sets it; it is optional so that a context built by
   * hand (a strategy's own unit test) need not.
   */
  readonly isError?: boolean | undefined;
}

/** What a strategy sees after a tool call. */
export interface ToolInjectionContext {
  /** The conversation so far, as AI SDK messages. */
  readonly conversationHistory: readonly ModelMessage[];
  /** The tools offered now. */
  readonly currentTools: readonly AnyTool[];
  /** The call whose result is evaluated. */
  readonly lastToolCall: LastToolCall;
  /**
   * The number of the step (iteration) whose tool call this is, from 1: the run's, as events number it
   * (`ToolLoopIteration.iteration`) and as `withMaxToolIterations` counts, so it goes on across restarts and
   * a resume (a call approved on resume is its step's); a continued conversation's turn starts again at 1.
   */
  readonly iterationCount: number;
  /**
   * The run's tool budget (`maxInjectedTools`, `maxInjectedTokens`): a strategy that finds many entities
   * can stop building tools at the first one it would skip, and say how many it left out in
   * {@link ToolInjectionResult.unbound}. Absent where no budget applies; a strategy may ignore it (the
   * budget still skips what does not fit).
   */
  readonly toolBudget?: ToolBudgetCheck | undefined;
}

/**
 * A strategy's request to start the run again from the prompt instead of going on: what a backend that
 * cannot change tools mid-conversation needs when a prompt must be re-rendered (progressive disclosure's
 * `VisibilityExpansionRequired` is one). The runner decides what a restart means for the request's kind.
 */
export interface RestartRequest {
  /** Why, in words (reported in the error when restarts run out). */
  readonly reason: string;
}

/** A provider that handle discovery made live: reported as `ToolProviderDiscovered` with its handle. */
export interface DiscoveredProvider {
  /** The live provider object. */
  readonly instance: object;
  /**
   * Its id as text.
   *
   * @deprecated Give `identity`; the run reads `identity`, or the instance's own when it is absent.
   */
  readonly instanceId: string;
  /**
   * Its identity, as its handle names it (optional for strategies written before it existed: the run then
   * reads it from `instance`).
   */
  readonly identity?: ProviderIdentity | undefined;
  /** Its handle, as the model reads it. */
  readonly handle: string;
  /** The handle tools that run on it. */
  readonly tools: readonly string[];
  /** An older instance with the same identity was live before. */
  readonly replaced: boolean;
}

/**
 * The change a strategy asks for: tools to add and names to remove. `notices` are appended to the result
 * the model sees (discovery explains a skipped provider this way); `restart` asks for a new start instead;
 * `discovered` reports providers reached through handles (their tools are not new).
 */
export interface ToolInjectionResult {
  /** Tools to offer from the next step. */
  readonly add?: readonly AnyTool[] | undefined;
  /** Names of tools to stop offering. */
  readonly remove?: readonly string[] | undefined;
  /** Lines appended to the result the model reads, each in brackets. */
  readonly notices?: readonly string[] | undefined;
  /** Asks to start the run again from its prompt instead of going on. */
  readonly restart?: RestartRequest | undefined;
  /** Providers made live through handles (their tools are already offered). */
  readonly discovered?: readonly DiscoveredProvider[] | undefined;
  /**
   * Entities (providers) of the result after those in `add` for which no tools were built, because
   * `toolBudget` said they would not fit; each entity once (a later instance of an identity in `add`, or
   * of one already counted, is not another). The model's notice counts them with the skipped ones.
   */
  readonly unbound?: number | undefined;
}

/**
 * Decides, after every tool call, which tools to add or remove before the next model call. Strategies run
 * in the order added, after each call of a tool the run offers that ends with a result the model reads,
 * a failed one included (`lastToolCall.isError`). They do not run for a call that reaches no tool: a name
 * that is no tool (or a `call_discovered_tool` call naming none), a call id repeated in one message, a
 * call a cancellation or a restart cut off.
 */
export interface ToolInjectionStrategy {
  /**
   * Called after every tool call, failed ones included: the tools to add or remove, notices (appended to
   * the result or error text the model reads), or a restart. A strategy that throws fails the run with
   * `StrategyError`, whether the call succeeded or not.
   */
  evaluateToolResult(context: ToolInjectionContext): ToolInjectionResult | Promise<ToolInjectionResult>;
}
