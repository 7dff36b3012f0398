import type { ProviderIdentity } from "../tools/provider-identity.js";
import type { TokenUsage } from "./token-usage.js";

/**
 * One model call's tokens and cost. On a conversation backend, one model's tokens of a turn: the turn's
 * last step has an entry for the agent loop's model and one more for each other model the turn used (a
 * subagent's, a helper call's), each with its own `modelId` and priced as it.
 */
export interface StepCost {
  /** The step's number in the run, as events number it (`ToolLoopIteration.iteration`). */
  readonly iteration: number;
  /** The model that answered; absent when the backend does not name it. */
  readonly modelId?: string;
  /** Tokens of this model call. */
  readonly usage: TokenUsage;
  /**
   * USD; absent when the cost is unknown: the provider reported no input or no output tokens for the call
   * (`ModelRespondedEvent.usageUnknown`), so its `usage` reads 0 where it spent tokens. Not 0, which
   * would read as free.
   */
  readonly cost?: number;
}

/**
 * What one discovered provider (class, id) added to the run: its tools' definitions in every request that
 * offered them, and its calls' results in every request after them. `cost` is its share of what those
 * requests' input cost: the providers' estimated tokens at each request's own price per input token
 * (cached tokens at the cached price), scaled down when they exceed the input tokens the request reported.
 * Part of the run's total, never more than it.
 */
export interface ProviderCost {
  /** The provider's class name (`identity.providerClass`). */
  readonly providerClass: string;
  /** The provider's identity: class name and typed id (`1` and `"1"` are two entries). */
  readonly identity: ProviderIdentity;
  /**
   * The provider's id as text.
   *
   * @deprecated Read `identity` (`1` and `"1"` both read `"1"` here).
   */
  readonly instanceId: string;
  /** Estimated definition tokens, summed over every request that offered its tools. */
  readonly definitionTokens: number;
  /** Calls of its tools (failed ones included). */
  readonly calls: number;
  /** Estimated tokens of its calls' results, summed over every request that carried them. */
  readonly resultTokens: number;
  /** USD: its share of its requests' input cost (0 where a request reported no input tokens). */
  readonly cost: number;
}

/** What a run cost, with pricing (`withPricing`). */
export interface RunCost {
  /**
   * USD, every model call of the run whose cost is known: with `unknownCostSteps`, the run cost more than
   * this.
   */
  readonly total: number;
  /**
   * How many entries of `perStep` have no `cost` (their provider reported no usage; a `ModelWarning` named
   * the model): `total` leaves them out. Absent when every cost is known.
   */
  readonly unknownCostSteps?: number;
  /** Each model call's tokens and cost, in order (a step can have one entry per model it used). */
  readonly perStep: readonly StepCost[];
  /** Discovered providers, in the order they were first discovered. */
  readonly perProvider: readonly ProviderCost[];
}

/**
 * A discovered provider's cost as a snapshot carries it (`RunSnapshot.cost`): what the result's
 * {@link ProviderCost} says (its class and id as `identity`), and what the run that goes on from the snapshot
 * needs to keep attributing to it.
 */
export interface SnapshotProviderCost {
  /** The provider's identity. */
  readonly identity: ProviderIdentity;
  /** As {@link ProviderCost.definitionTokens}. */
  readonly definitionTokens: number;
  /** As {@link ProviderCost.calls}. */
  readonly calls: number;
  /** As {@link ProviderCost.resultTokens}. */
  readonly resultTokens: number;
  /** As {@link ProviderCost.cost}: USD. */
  readonly cost: number;
  /** Estimated tokens of its calls' results the conversation holds: every later request carries them. */
  readonly heldResultTokens: number;
  /**
   * Handles mode, in snapshots of earlier versions: the handles that named it. No longer written or read: a
   * handle tool's call names its provider itself (`ToolInvokedEvent.provider`).
   */
  readonly handles?: readonly string[];
}

/**
 * A run's cost so far as its snapshot carries it, with pricing: a run resumed or continued from the snapshot
 * goes on from it, so its `cost` is the whole run's, as its `usage` is. `total` is the sum of `perStep`.
 */
export interface SnapshotCost {
  /** USD, every model call so far: the sum of `perStep`'s costs (an unknown one left out). */
  readonly total: number;
  /** Each model call's tokens and cost so far, in order (a continued conversation's turns each count from 1). */
  readonly perStep: readonly StepCost[];
  /** Discovered providers so far, in the order they were first discovered. */
  readonly perProvider: readonly SnapshotProviderCost[];
}
