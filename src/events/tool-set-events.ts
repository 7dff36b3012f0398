// The tool set's changes during a run: tools added to the running conversation, and tools taken away.
import type { RunEvent } from "./run-event.js";

/** Tools were added to the running conversation. */
export interface ToolsInjectedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "ToolsInjected";
  /** The tools added, by name: the model is offered them from the next step. */
  readonly toolNames: readonly string[];
  /** The tool call whose result caused the injection (`read_section` when a section unlocked them). */
  readonly triggeredBy: string;
  /** That call's id (absent when a dynamic source added the tools: `triggeredBy` is then its label). */
  readonly toolCallId?: string;
}

/**
 * Tools were taken away: by a strategy, to stay within the tool budget, by a source, or, as a run goes on
 * from a snapshot (`resume`, `continueFrom`), because their provider could not be bound again.
 */
export interface ToolsRemovedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "ToolsRemoved";
  /** The tools taken away, by name: the next step no longer offers them. */
  readonly toolNames: readonly string[];
  /**
   * `source`: a dynamic tool source (an MCP server) no longer offers them; `unrestored`: the snapshot's run
   * had them, and their provider could not be restored (the model is told so, before its first step).
   */
  readonly reason: "strategy" | "budget" | "source" | "unrestored";
  /** The call after whose result a strategy removed them, or whose new tools pushed them out of the budget. */
  readonly toolCallId?: string;
  /**
   * `unrestored` only, for observers: what `resolveProvider` threw. The model reads only that it failed (it
   * may hold anything, a credential); the run log writes its name and message with `recordContent` only.
   */
  readonly cause?: unknown;
}
