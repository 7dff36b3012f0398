// The small shape `scoreToolUse` reads, whatever produced the run: the steps, what each offered, and the
// calls with the provider each ran on. Adapters make it from a run's result and from a `RunRecorder`'s
// steps; a run log's adapter joins them (docs/testing.md, "Scoring tool use", says what each source knows).
import type { ProviderIdentity } from "../../tools/provider-identity.js";

/** One tool call of a run, as the scorer reads it. */
export interface ToolUseCall {
  /** The step (model call, from 1) the call was made at. */
  readonly step: number;
  /** The tool's name, as the model called it. */
  readonly toolName: string;
  /** The call's input, as the model sent it. */
  readonly input: unknown;
  /** The provider (entity) it ran on: a per-instance tool's, or the one its handle named. */
  readonly provider?: ProviderIdentity | undefined;
  /** True when the call got an error result (unknown tool, invalid input, it threw, was denied…). */
  readonly failed?: boolean | undefined;
  /**
   * True when the call waits for a person's decision: the model made it, and the run paused before it ran
   * (`awaiting-approval`). It counts as made: the model chose the tool.
   */
  readonly waiting?: boolean | undefined;
}

/** One model step of a run, as the scorer reads it. */
export interface ToolUseStep {
  /** From 1. */
  readonly step: number;
  /** The tools the model could call at this step; absent when the source does not know them. */
  readonly offered?: readonly string[] | undefined;
  /** The calls the model made at this step, in order. */
  readonly calls: readonly ToolUseCall[];
}

/** What a tool runs on: a provider class's method, on one provider (per-instance) or on any, by handle. */
export interface ToolBinding {
  /** The provider class's source name. */
  readonly providerClass: string;
  /** The method the tool runs. */
  readonly method: string;
  /** A per-instance tool's provider; absent for a handle tool, whose calls name the provider by handle. */
  readonly provider?: ProviderIdentity | undefined;
}

/** A run, as `scoreToolUse` reads it. */
export interface ToolUseRun {
  /** The model steps, in order. */
  readonly steps: readonly ToolUseStep[];
  /** What each tool name runs on, where the source knows (tools of no provider are absent). */
  readonly tools?: Readonly<Record<string, ToolBinding>> | undefined;
  /**
   * Handles mode: each provider whose handle the model had read, and the first step that could use it (a
   * handle tool is offered for an entity only from then on). Absent when the source does not know.
   */
  readonly handles?:
    readonly { readonly provider: ProviderIdentity; readonly fromStep: number }[] | undefined;
  /**
   * For a source that does not know each step's tools (a run's result): every tool the run offered at some
   * step. Verdicts are then about the run as a whole, not a step.
   */
  readonly offeredInRun?: readonly string[] | undefined;
}
