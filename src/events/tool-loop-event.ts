import type { ProviderIdentity } from "../tools/provider-identity.js";
/**
 * Why a tool call produced an error result instead of a result: the tool is unknown, the input invalid,
 * the tool threw or ran past its time limit, its result could not be read, or it never ran (the run was
 * cancelled, or restarted, a person denied it, or the call repeated an id).
 */
export type ToolFailureReason =
  | "unknown-tool"
  | "invalid-input"
  | "threw"
  | "timeout"
  | "unreadable-result"
  | "cancelled"
  | "denied"
  | "not-run";

import type { ToolDelivery } from "../tools/tool-delivery.js";
import type { RunCost } from "./run-cost.js";
import type { TokenUsage } from "./token-usage.js";
import type { ToolContentPart } from "../tools/tool-content.js";
import type { ApprovalDecidedEvent, ApprovalRequestedEvent } from "./approval-events.js";
import type { RunLogWarningEvent } from "./run-log-warning-event.js";

/** What every event of a run carries (each {@link ToolLoopEvent} has these fields). */
export interface RunEvent {
  /** Identifies the run (a runner serves many runs, possibly at once). */
  readonly runId: string;
}

/** A run (or a resumed run) begins; every other event of the run comes after it. */
export interface RunStartedEvent extends RunEvent {
  readonly type: "RunStarted";
  /** True when the run goes on from a snapshot (`resume`). */
  readonly resumed: boolean;
}

/** A run ended: completed, paused for approval, or failed (`error` is what the caller got). */
export interface RunFinishedEvent extends RunEvent {
  readonly type: "RunFinished";
  readonly status: "completed" | "awaiting-approval" | "failed";
  /** Steps (model calls) of the run, a resumed run's earlier part included: the result's `totalIterations`. */
  readonly totalIterations: number;
  /** @deprecated Use `totalIterations`, the result's name for the same count. */
  readonly iterations: number;
  /** Tokens of this call of `run`/`stream`/`resume` (a resumed run's earlier part not included). */
  readonly usage: TokenUsage;
  readonly durationMs: number;
  readonly error?: Error;
  /** With `withPricing`: what the run cost (as `ToolLoopResult.cost`, also when it failed). */
  readonly cost?: RunCost;
}

/** A model call is about to be made. */
export interface ToolLoopIterationEvent extends RunEvent {
  readonly type: "ToolLoopIteration";
  readonly iteration: number;
  /** Names offered to the model at this step. */
  readonly toolNames: readonly string[];
}

/** The model answered one step. */
export interface ModelRespondedEvent extends RunEvent {
  readonly type: "ModelResponded";
  readonly iteration: number;
  readonly text: string;
  readonly toolCalls: readonly { readonly toolName: string; readonly input: unknown }[];
  /** Tokens of this model call (0 where the provider reported none). */
  readonly usage: TokenUsage;
  /** How long the model call took, retries included. */
  readonly durationMs: number;
  /** The model that answered, when the backend names it. */
  readonly modelId?: string;
}

/** A backend reported something worth knowing about a model call (it fell back to a slower path). */
export interface ModelWarningEvent extends RunEvent {
  readonly type: "ModelWarning";
  readonly iteration: number;
  readonly message: string;
}

/** A tool call starts (after the model asked for it, before validation); a `ToolInvoked` or `ToolFailed` follows. */
export interface ToolCallStartedEvent extends RunEvent {
  readonly type: "ToolCallStarted";
  readonly iteration: number;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/**
 * A tool ran and returned; `resultText` is exactly what the model reads, notices that strategies appended
 * included. It is emitted after the strategies ran, so it follows the discovery events it caused.
 */
export interface ToolInvokedEvent extends RunEvent {
  readonly type: "ToolInvoked";
  readonly iteration: number;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly resultText: string;
  /**
   * Set when the result reaches the model with media (images, audio, files): its parts, text included;
   * `resultText` then names each media part.
   */
  readonly parts?: readonly ToolContentPart[];
  readonly durationMs: number;
}

/** A tool call ended in an error result sent back to the model. */
export interface ToolFailedEvent extends RunEvent {
  readonly type: "ToolFailed";
  readonly iteration: number;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly reason: ToolFailureReason;
  readonly message: string;
}

/** A provider instance's tools were bound (first time, or replacing an older instance with the same id). */
export interface ToolProviderDiscoveredEvent extends RunEvent {
  readonly type: "ToolProviderDiscovered";
  /** The provider's class itself (its name is `identity.providerClass`). */
  readonly providerClass: Function;
  /** The provider's identity: its class's name and typed id (`1` and `"1"` are two providers). */
  readonly identity: ProviderIdentity;
  /**
   * The provider's id as text.
   *
   * @deprecated Read `identity` (`1` and `"1"` both read `"1"` here).
   */
  readonly instanceId: string;
  /** The call whose result returned the provider (absent for providers a dynamic source brought). */
  readonly toolCallId?: string;
  readonly exposedTools: readonly string[];
  /** True when an older instance with the same id held these names before (the newest state wins). */
  readonly replacedEarlierInstance: boolean;
  /**
   * Tools of this provider that got another name, because their natural name already belongs to a
   * different (class, id, method) in this run: `_` in an id lining up with `_` in a method name, two
   * classes with one prefix, `1` and `"1"`. Empty almost always.
   */
  readonly renamedTools: readonly { readonly requested: string; readonly name: string }[];
  /**
   * Estimated tokens each exposed tool's definition (name, description, input schema) adds to every request
   * that offers it, by tool name: what cost attribution and `maxInjectedTokens` count (see
   * `estimateDefinitionTokens`).
   */
  readonly definitionTokens: Readonly<Record<string, number>>;
  /**
   * Per-instance binding: the provider method each exposed tool runs, by tool name (`getAverageSpend` for
   * `customer_c123_getAverageSpend`), so a reader can tell the same method of two providers apart from two
   * methods without parsing names. Absent in handles mode (the handle tools are the class's, not this
   * provider's).
   */
  readonly methods?: Readonly<Record<string, string>>;
  /** In handles mode (`binding: "handles"`): the provider's handle, as the model read it. */
  readonly handle?: string;
  /**
   * How the tools reach the model: `"inline"` in the request's tool list, `"deferred"` in the model
   * provider's deferred form (`withToolProviderDiscovery({ delivery: "deferred" })`; a provider without one
   * gets them inline, and a `ModelWarning` says so).
   */
  readonly delivery: ToolDelivery;
}

/** Tools were added to the running conversation. */
export interface ToolsInjectedEvent extends RunEvent {
  readonly type: "ToolsInjected";
  readonly toolNames: readonly string[];
  /** The tool call whose result caused the injection (`read_section` when a section unlocked them). */
  readonly triggeredBy: string;
  /** That call's id (absent when a dynamic source added the tools: `triggeredBy` is then its label). */
  readonly toolCallId?: string;
}

/** Tools were taken away: by a strategy, or to stay within the tool budget. */
export interface ToolsRemovedEvent extends RunEvent {
  readonly type: "ToolsRemoved";
  readonly toolNames: readonly string[];
  /** `source`: a dynamic tool source (an MCP server) no longer offers them. */
  readonly reason: "strategy" | "budget" | "source";
  /** The call after whose result a strategy removed them, or whose new tools pushed them out of the budget. */
  readonly toolCallId?: string;
}

/**
 * The run starts again from its prompt, in a new attempt: a strategy asked for it, or a section read
 * unlocked tools the backend cannot add to a running conversation. Tools the earlier attempt added are not
 * offered again unless the new attempt adds them.
 */
export interface RunRestartedEvent extends RunEvent {
  readonly type: "RunRestarted";
  /** Why, in words (the restart request's reason). */
  readonly reason: string;
}

/**
 * A tool a dynamic source (an MCP server) lists is not offered to the model: its name is taken by a local
 * tool or another source's (the one offered first keeps it), or its schema cannot be used safely.
 */
export interface SourceToolSkippedEvent extends RunEvent {
  readonly type: "SourceToolSkipped";
  /** The source's label (`mcp:shop (2026-07-28)`). */
  readonly source: string;
  /** The tool's name as the source lists it. */
  readonly toolName: string;
  readonly reason: string;
}

/**
 * A dynamic source listed a tool again under the same name with another definition (input schema or
 * description): the run offers the new one from the next step. Calls the model prepared against the old
 * schema are validated against the new one.
 */
export interface SourceToolChangedEvent extends RunEvent {
  readonly type: "SourceToolChanged";
  readonly source: string;
  /** The names the model sees. */
  readonly toolNames: readonly string[];
}

/** Final output did not parse or validate and was sent back to the model. */
export interface OutputRejectedEvent extends RunEvent {
  readonly type: "OutputRejected";
  readonly iteration: number;
  readonly problems: readonly string[];
}

/** A summarized prompt section was expanded: in the running conversation, or by restarting the run. */
export interface VisibilityExpandedEvent extends RunEvent {
  readonly type: "VisibilityExpanded";
  readonly sectionKey: string;
  readonly mode: "dynamic" | "restart";
  /** Tools the expansion unlocked (on a restart, they are offered from the new start). */
  readonly unlockedTools: readonly string[];
}

/**
 * A conversation backend (Codex) that cannot add tools to a running thread stopped it and goes on in a new
 * one, which offers `toolNames` (the tools that appeared included) and a transcript of the calls so far.
 */
export interface ConversationRestartedEvent extends RunEvent {
  readonly type: "ConversationRestarted";
  readonly toolNames: readonly string[];
}

/**
 * A conversation backend could not offer tools a call added in the running conversation (in `dynamic`
 * mode, it did not list them again in time): the run goes on in a new conversation that has them, as in
 * `restart` mode.
 */
export interface DynamicToolsFallbackEvent extends RunEvent {
  readonly type: "DynamicToolsFallback";
  readonly toolNames: readonly string[];
  readonly fallback: "restart";
  readonly reason: string;
}

/** Everything a run reports to observers. */
export type ToolLoopEvent =
  | RunStartedEvent
  | RunFinishedEvent
  | ToolLoopIterationEvent
  | ModelRespondedEvent
  | ModelWarningEvent
  | ToolCallStartedEvent
  | ToolInvokedEvent
  | ToolFailedEvent
  | ToolProviderDiscoveredEvent
  | ToolsInjectedEvent
  | ToolsRemovedEvent
  | SourceToolSkippedEvent
  | SourceToolChangedEvent
  | OutputRejectedEvent
  | VisibilityExpandedEvent
  | ConversationRestartedEvent
  | DynamicToolsFallbackEvent
  | RunRestartedEvent
  | ApprovalRequestedEvent
  | ApprovalDecidedEvent
  | RunLogWarningEvent;

/**
 * Receives every event of every run of a runner. What it throws, and the rejection of a promise it
 * returns (an async observer is accepted too), are caught and ignored: an observer cannot change or
 * break the run it watches.
 */
export type ToolLoopObserver = (event: ToolLoopEvent) => void;

/** An event as emitted inside a run, before the run id is attached. */
export type RunEventInit = ToolLoopEvent extends infer E
  ? E extends ToolLoopEvent
    ? Omit<E, "runId">
    : never
  : never;
