import type { ProviderIdentity } from "../tools/provider-identity.js";
import type { ToolDelivery } from "../tools/tool-delivery.js";
import type { RunCost } from "./run-cost.js";
import type { TokenUsage } from "./token-usage.js";
import type { ApprovalDecidedEvent, ApprovalRequestedEvent } from "./approval-events.js";
import type { RunLogWarningEvent } from "./run-log-warning-event.js";
import type { RunEvent } from "./run-event.js";
import type { ToolsInjectedEvent, ToolsRemovedEvent } from "./tool-set-events.js";
import type { ToolCallStartedEvent, ToolFailedEvent, ToolInvokedEvent } from "./tool-call-events.js";
import type {
  ConversationRestartedEvent,
  DynamicToolsFallbackEvent,
  RunRestartedEvent,
} from "./restart-events.js";

// Each event type's home: this file, or a file of its own concern that this one re-exports.
export type { RunEvent } from "./run-event.js";
export type {
  ToolCallStartedEvent,
  ToolFailedEvent,
  ToolFailureReason,
  ToolInvokedEvent,
} from "./tool-call-events.js";
export type {
  ConversationRestartedEvent,
  DynamicToolsFallbackEvent,
  RestartCause,
  RunRestartedEvent,
} from "./restart-events.js";
export type { ToolsInjectedEvent, ToolsRemovedEvent } from "./tool-set-events.js";

/** A run (or a resumed run) begins; every other event of the run comes after it. */
export interface RunStartedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "RunStarted";
  /** True when the run goes on from a snapshot (`resume`, or a conversation's next turn, `continueFrom`). */
  readonly resumed: boolean;
  /**
   * The run this one goes on from (`resume`, `continueFrom`): the `runId` of the run that wrote its snapshot
   * (the snapshot's `log`), as the run log's `continues` names it. Absent for a new run, and for a
   * snapshot that names no run (one an earlier release wrote of a run it did not log).
   */
  readonly continues?: string;
}

/** A run ended: completed, paused for approval, or failed (`error` is what the caller got). */
export interface RunFinishedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "RunFinished";
  /** How it ended: completed, paused until a person decides (`awaiting-approval`), or failed. */
  readonly status: "completed" | "awaiting-approval" | "failed";
  /**
   * Steps (model calls) of the run, a resumed run's earlier part and a continued conversation's earlier turns
   * included: the result's `totalIterations`.
   */
  readonly totalIterations: number;
  /**
   * Steps (model calls) of the run, as `totalIterations`.
   *
   * @deprecated Use `totalIterations`, the result's name for the same count.
   */
  readonly iterations: number;
  /** Tokens of this call of `run`/`stream`/`resume` (a resumed run's earlier part not included). */
  readonly usage: TokenUsage;
  /** How long this call of `run`/`stream`/`resume` took, in ms. */
  readonly durationMs: number;
  /** The error the caller got; absent unless `status` is `"failed"`. */
  readonly error?: Error;
  /**
   * With `withPricing`: what the run cost (as `ToolLoopResult.cost`, also when it failed): the whole run's,
   * a resumed snapshot's part included, unlike `usage` here. A conversation's later turn's `cost.total` holds
   * its earlier turns' too: take the latest, never add them up (three turns would count the first three
   * times); add up `callCost` instead.
   */
  readonly cost?: RunCost;
  /**
   * With `withPricing`: USD of this call of `run`/`stream`/`resume` alone, as `usage` (a resumed run's earlier
   * part and a conversation's earlier turns not included; its run log file's `end` `cost`, the result's
   * `callCost`). Added up over a conversation's `RunFinished` events it is the conversation's cost, each
   * model call counted once: the latest `cost.total`. A model call of unknown cost (`usageUnknown`) is left
   * out, as from `cost.total`.
   */
  readonly callCost?: number;
}

/** A model call is about to be made. */
export interface ToolLoopIterationEvent extends RunEvent {
  /** The event's kind. */ readonly type: "ToolLoopIteration";
  /**
   * The step's number in the run, from 1: the count `withMaxToolIterations` bounds, going on across restarts
   * (`RunRestarted`) and a resume; a continued conversation's turn starts again at 1. Every other event of
   * the step, a stream's `step-finish` and a strategy's `iterationCount` give the same number.
   */
  readonly iteration: number;
  /** Names offered to the model at this step. */
  readonly toolNames: readonly string[];
}

/** The model answered one step. */
export interface ModelRespondedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "ModelResponded";
  /** The step's number in the run, as `ToolLoopIteration.iteration`. */
  readonly iteration: number;
  /** The model's text (empty when it only called tools). */
  readonly text: string;
  /** The tools the model asked to call, in order, with the input it gave each. */
  readonly toolCalls: readonly { readonly toolName: string; readonly input: unknown }[];
  /**
   * Tokens of this model call (0 where the provider reported none). A conversation backend (Codex, Claude
   * Code) reports tokens per turn: they are on the turn's last step, 0 on its other steps; a turn a stop
   * ended reports them in a second event of its last step, and the turn's tokens of another model than
   * the turn's own (Claude Code's subagents, helper calls) follow in one more event per model, named by it
   * (see docs/backends.md, "The loop").
   */
  readonly usage: TokenUsage;
  /** How long the model call took, retries included. */
  readonly durationMs: number;
  /**
   * The model the call asked for, when the backend names it: for an AI SDK model, the model's own id (a
   * model given by id or behind an alias: the model it resolved to); on a conversation backend, the model it
   * names for the turn, on the step that carries the turn's tokens. Pricing looks up this id.
   */
  readonly modelId?: string;
  /**
   * The model the provider's response names, when it is another than `modelId` (say, a dated snapshot of
   * it: `gpt-5-2025-08-07` for `gpt-5`); absent when they are the same.
   */
  readonly responseModelId?: string;
  /**
   * True when the backend reported no input or no output tokens for this call (a custom provider, or a proxy
   * that strips the usage), or one that is no count of tokens (`-5`, `NaN`): `usage` counts them as 0, which
   * is not what the call cost. With pricing, the call's cost is unknown (`StepCost.cost` absent). A
   * `ModelWarning` says so once per run and model, with pricing or without (then of the `usage` it
   * undercounts), naming the count that was no count.
   * Absent when the counts were reported, and on a conversation backend's calls whose tokens come with
   * the turn's.
   */
  readonly usageUnknown?: true;
}

/** A backend reported something worth knowing about a model call (it fell back to a slower path). */
export interface ModelWarningEvent extends RunEvent {
  /** The event's kind. */ readonly type: "ModelWarning";
  /** The step the warning is about (its number, as `ToolLoopIteration.iteration`). */
  readonly iteration: number;
  /** The warning, in words. */
  readonly message: string;
}

/** A provider instance's tools were bound (first time, or replacing an older instance with the same id). */
export interface ToolProviderDiscoveredEvent extends RunEvent {
  /** The event's kind. */ readonly type: "ToolProviderDiscovered";
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
  /** Per instance: the tools bound to it; handles mode: the class's tools its handle works with. */
  readonly exposedTools: readonly string[];
  /**
   * True when an older instance with the same id, bound by an earlier result (or an earlier addition),
   * held these names before (across results the newest state wins). Two instances with one id in one
   * result bind the first one only (the later one has no event), with this `false` unless an earlier
   * result had bound that id.
   */
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

/**
 * A tool a dynamic source (an MCP server) lists is not offered to the model: its name is taken by a local
 * tool or another source's (the one offered first keeps it), or its schema cannot be used safely.
 */
export interface SourceToolSkippedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "SourceToolSkipped";
  /** The source's label (`mcp:shop (2026-07-28)`). */
  readonly source: string;
  /** The tool's name as the source lists it. */
  readonly toolName: string;
  /** Why it is not offered, in words (`the name is taken by …`). */
  readonly reason: string;
}

/**
 * A dynamic source listed a tool again under the same name with another definition (input schema or
 * description): the run offers the new one from the next step. Calls the model prepared against the old
 * schema are validated against the new one.
 */
export interface SourceToolChangedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "SourceToolChanged";
  /** The source's label (`mcp:shop (2026-07-28)`). */
  readonly source: string;
  /** The names the model sees. */
  readonly toolNames: readonly string[];
}

/** Final output did not parse or validate and was sent back to the model. */
export interface OutputRejectedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "OutputRejected";
  /** The step whose answer was rejected (its number, as `ToolLoopIteration.iteration`). */
  readonly iteration: number;
  /** What was wrong with the output, one problem each, as the model is told. */
  readonly problems: readonly string[];
}

/** A summarized prompt section was expanded: in the running conversation, or by restarting the run. */
export interface VisibilityExpandedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "VisibilityExpanded";
  /** The expanded section's key. */
  readonly sectionKey: string;
  /**
   * How the read took effect: `dynamic`, the tools it unlocked joined the running conversation; `restart`,
   * the run starts again with them; `content`, it unlocked no tools, so its text, the read's result, was all
   * it changed (no restart, on any backend).
   */
  readonly mode: "dynamic" | "restart" | "content";
  /**
   * Tools that came with this section (on a restart, they are offered from the new start): its own and
   * those of its descendants shown in full with it, not those of another section the same read expanded (a
   * nested read's section, below a summarized parent, keeps its own). A read's events name each tool once.
   */
  readonly unlockedTools: readonly string[];
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
