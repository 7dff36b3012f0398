import type { ModelMessage } from "ai";
import type { RunCounters } from "../../events/run-counters.js";
import type { SnapshotCost } from "../../events/run-cost.js";
import { sourceNameOf } from "../../schema/schema-store.js";
import { providerBindingOf } from "../../tools/provider-binding.js";
import type { ProviderToolIdentity } from "../../tools/provider-identity.js";
import type { AnyTool } from "../../tools/tool.js";
import type { ModelToolCall, TokenUsage } from "../ports/model-port.js";
import type { RunSettings } from "../settings/run-settings.js";
import type { SectionVisibility } from "./section-visibility.js";

/** What every run snapshot says it is (`RunSnapshot.format`): tells a snapshot apart from other JSON. */
export const SNAPSHOT_FORMAT = "entity-tools/run-snapshot";
/**
 * Version 2 added handle tools; a version 1 snapshot (without them) reads as it did. A field an older reader
 * may ignore without misreading the run comes without a new version (`cost`: an older entity-tools resumes
 * such a snapshot with the cost of its own part only, as it always did).
 */
export const SNAPSHOT_VERSION = 2;
/** Every format version this package resumes from. */
export const READABLE_SNAPSHOT_VERSIONS: readonly number[] = [1, 2];

/**
 * A tool of the run, as a snapshot records it: by name; for a provider's tool, its binding; for a handle
 * tool (version 2), its class and method (the instances are named by the handles in the history).
 */
export type SnapshotTool =
  | { readonly name: string }
  | {
      readonly name: string;
      readonly binding: "handles";
      /** The provider class's source name. */
      readonly providerClass: string;
      readonly method: string;
    }
  | ({ readonly name: string } & ProviderToolIdentity);

/**
 * Calls of a model message that wait for approval (and the later ones, which wait with them), as a paused
 * run's snapshot records them (`RunSnapshot.paused`); `resume` runs them once decided.
 */
export interface PausedCalls {
  /** The iteration (step) of the model message the calls belong to, as events number it. */
  readonly iteration: number;
  /** The first call that waits for a decision, then the later calls of its message, in order. */
  readonly calls: readonly ModelToolCall[];
  /**
   * Calls of other model messages that were held while the run paused, each message's as above: a backend
   * that runs a response's calls at once, each call its own step (Codex), can hold several. Absent when
   * one message holds them all (always, on a step backend).
   */
  readonly more?: readonly { readonly iteration: number; readonly calls: readonly ModelToolCall[] }[];
}

/**
 * A run as plain JSON (it survives `JSON.stringify`/`JSON.parse`): its conversation, its tools (static
 * ones by name, discovered ones as provider class, id and method), the calls it paused before,
 * section visibility, counters, the settings it used, and a format version. No live object, no
 * function, nothing `@Exclude`d (the history holds only what the model read).
 */
export interface RunSnapshot {
  /** Always `"entity-tools/run-snapshot"` (`SNAPSHOT_FORMAT`): tells a snapshot apart from other JSON. */
  readonly format: typeof SNAPSHOT_FORMAT;
  /** Its format version (`SNAPSHOT_VERSION`); `resume` reads those in `READABLE_SNAPSHOT_VERSIONS`. */
  readonly version: number;
  /** The conversation so far as AI SDK messages (after a restart, the latest attempt's). */
  readonly history: readonly ModelMessage[];
  /** The tools offered when it was written: by name, a provider's with its class, id and method. */
  readonly tools: readonly SnapshotTool[];
  /** Calls that wait for a decision (and the later calls of their message, which wait with them). */
  readonly paused?: PausedCalls;
  /**
   * The prompt sections' visibility overrides, by dotted section key: what the result's `visibility`
   * holds (the snapshot's schema admits no other value, in every readable version).
   */
  readonly visibility: Readonly<Record<string, SectionVisibility>>;
  /**
   * Model calls of the whole run so far, earlier attempts and a resumed snapshot's included (and a continued
   * conversation's earlier turns: the result's `totalIterations`).
   */
  readonly iterations: number;
  /**
   * Of `iterations`, the model calls of the run answering the conversation's latest prompt (its restarts and
   * the part before a pause included), which `withMaxToolIterations` bounds: a resumed run goes on counting
   * from it, and a continued conversation's turn starts its own count. Absent when it equals `iterations`
   * (a run that continued no conversation).
   */
  readonly turnIterations?: number;
  /** Tokens of the whole run so far, earlier attempts and a resumed snapshot's included. */
  readonly usage: TokenUsage;
  /**
   * Restarts from the prompt of the run so far that `withMaxExpansions` bounds (a section read's, a
   * strategy's `restart`; not a backend's new thread): a resumed run goes on counting from it, and a
   * continued conversation's turn, a new prompt, starts its own count. Absent when there were none.
   */
  readonly expansions?: number;
  /** The run's counters so far, as `ToolLoopResult.counters` reports them. */
  readonly counters: RunCounters;
  /**
   * With pricing (`withPricing`), the cost of the whole run so far (earlier attempts, a resumed snapshot's
   * and a continued conversation's earlier turns included), which a run going on from the snapshot goes on
   * from, so that its `cost` is the whole run's, as its `usage` is. Absent for a run without pricing.
   */
  readonly cost?: SnapshotCost;
  /** The settings the run used, for the record: `resume` runs with the resuming runner's own. */
  readonly settings: RunSettings;
  /**
   * The id of the run that wrote it: its events' `runId`, and its run log file's `id` when it was logged
   * (`withRunLog`). A run that goes on from this snapshot names it as the run it `continues`
   * (`RunStarted.continues`, the run log's `continues`), which is how a `RunRecorder` keeps a resumed run
   * one run and the viewer puts a conversation's turns together. Absent in snapshots an earlier release
   * wrote of a run it did not log.
   */
  readonly log?: string;
  /**
   * The stored conversation the snapshot belongs to: the `conversationId` given to the run (the id of its
   * `beginConversationTurn`), else the one of the snapshot it went on from. A run given another
   * `conversationId` refuses to go on from it, and `turn.save` of another conversation's turn refuses it
   * (`ConversationMismatchError`). Absent when no run of the conversation was given one, and in snapshots an
   * earlier release wrote (both go on and save as before); an earlier release reads it and ignores it.
   */
  readonly conversationId?: string;
  /** With a snapshot key (`withSnapshotKey`): `hmac-sha256:` and the MAC of everything else, base64url. */
  readonly signature?: string;
}

/** How a snapshot records one tool: a handle tool by class and method, a provider's by its binding, any other by name. */
export function snapshotTool(tool: AnyTool): SnapshotTool {
  const target = tool.handleTarget;
  if (target)
    return {
      name: tool.name,
      binding: "handles",
      providerClass: sourceNameOf(target.providerClass),
      method: target.methodName,
    };
  const binding = providerBindingOf(tool);
  return binding ? { name: tool.name, ...binding } : { name: tool.name };
}
