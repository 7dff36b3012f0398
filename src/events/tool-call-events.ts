// The events of one tool call: it starts, then it returns a result or fails with an error result the model
// reads. Every call that starts ends in one of the two; a call refused before it starts only fails.
import type { ProviderToolIdentity } from "../tools/provider-identity.js";
import type { ToolContentPart } from "../tools/tool-content.js";
import type { RunEvent } from "./run-event.js";

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

/** A tool call starts (after the model asked for it, before validation); a `ToolInvoked` or `ToolFailed` follows. */
export interface ToolCallStartedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "ToolCallStarted";
  /** The step whose model response asked for the call (its number, as `ToolLoopIteration.iteration`). */
  readonly iteration: number;
  /** The call's id, as the model gave it; the call's `ToolInvoked` or `ToolFailed` names it too. */
  readonly toolCallId: string;
  /** The tool the model called, by name. */
  readonly toolName: string;
  /** The input the model gave, not yet validated. */
  readonly input: unknown;
}

/**
 * A tool ran and returned; `resultText` is exactly what the model reads, notices that strategies appended
 * included. It is emitted after the strategies ran, so it follows the discovery events it caused.
 */
export interface ToolInvokedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "ToolInvoked";
  /** The step whose model response asked for the call (its number, as `ToolLoopIteration.iteration`). */
  readonly iteration: number;
  /** The call's id, as the model gave it. */
  readonly toolCallId: string;
  /** The tool that ran, by name. */
  readonly toolName: string;
  /** The input the tool ran with, validated against its schema. */
  readonly input: unknown;
  /** The result as the model reads it, strategies' notices included. */
  readonly resultText: string;
  /**
   * Set when the result reaches the model with media (images, audio, files): its parts, text included;
   * `resultText` then names each media part.
   */
  readonly parts?: readonly ToolContentPart[];
  /** How long the tool ran, in ms, reading its result included (the strategies after it not). */
  readonly durationMs: number;
  /**
   * For a discovered provider's tool, the provider and the method, as `ApprovalRequested` names them; for a
   * handle tool, the provider its handle names when the handle is valid for the tool, one this run never
   * found too (re-bound through `resolveProvider`, or not found). Absent for other tools and for a refused
   * handle (not a handle, not signed with the key, another class's): it names no provider.
   */
  readonly provider?: ProviderToolIdentity;
}

/**
 * A tool call ended in an error result sent back to the model. For a call of a known tool it is emitted
 * after the strategies ran (as `ToolInvoked` is), so it follows the events they caused.
 */
export interface ToolFailedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "ToolFailed";
  /** The step whose model response asked for the call (its number, as `ToolLoopIteration.iteration`). */
  readonly iteration: number;
  /** The call's id, as the model gave it. */
  readonly toolCallId: string;
  /** The tool the model called, by name (it may name no tool: `unknown-tool`). */
  readonly toolName: string;
  /** The input the model gave. */
  readonly input: unknown;
  /** Why the call failed or never ran. */
  readonly reason: ToolFailureReason;
  /**
   * For a discovered provider's tool, the provider and the method, as `ApprovalRequested` names them; for a
   * handle tool, the provider its handle names when the handle is valid for the tool, one this run never
   * found too (re-bound through `resolveProvider`, or not found). Absent for other tools and for a refused
   * handle (not a handle, not signed with the key, another class's): it names no provider.
   */
  readonly provider?: ProviderToolIdentity;
  /**
   * The error result the model reads: the error text capped at `maxResultChars`, then the notices
   * strategies appended (they run after a failed call of a known tool, too).
   */
  readonly message: string;
  /**
   * What was thrown, for observers only, when the failure is the server's own and its message is not
   * told to the model or the client (it may hold anything, a credential): on an MCP server, a strategy
   * that threw; in a run and on an MCP server, an approval rule (`withApproval`, `approval`) that threw
   * (or the `ApprovalRuleError` saying what it returned instead of a boolean), and a `resolveProvider`
   * that threw while a handle was re-bound. Absent otherwise. The run log writes it (its name and message) on the operator's
   * machine, with `recordContent` only.
   */
  readonly cause?: unknown;
}
