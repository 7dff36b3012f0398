// The events of a restart: the one event each restart has (RunRestarted, with its cause), and the two that
// detail a conversation backend's new thread. Every observer counts and shows RunRestarted alone.
import type { RunEvent } from "./run-event.js";

/**
 * What made a run restart: `expansion`, a section read unlocked tools the backend cannot add to a running
 * conversation (the run starts again from its prompt with the sections expanded); `strategy`, a
 * `ToolInjectionStrategy` asked for it (`restart`; again from the prompt); `new-thread`, a conversation
 * backend with fixed tools (Codex, Claude Code in `restart` mode) went on in a new thread to offer tools that
 * appeared; `fallback`, a conversation backend in `dynamic` mode could not offer them in time and went on in
 * a new thread (`DynamicToolsFallback`). Calls of one turn that each ask for a restart (a conversation
 * backend runs them at once) make one: an `expansion` of every section they read, or, with none read, a
 * `strategy`; the `reason` joins theirs with "; ".
 */
export type RestartCause = "expansion" | "strategy" | "new-thread" | "fallback";

/**
 * The run restarted: the one event of each restart, whatever asked for it (`cause`), which the counters
 * (`restarts`), telemetry (`tools.restart`), the run log (`restart`) and the debug log read. An `expansion`
 * or a `strategy` starts again from the prompt, in a new attempt: tools the earlier attempt added are not
 * offered again unless the new attempt adds them. A `new-thread` or a `fallback` goes on in a new thread of
 * the conversation backend with every tool the run has, told what was done so far. The events that detail
 * a restart come after it: a `VisibilityExpanded` (mode `restart`) for each section it expands,
 * `DynamicToolsFallback` (a fallback's) then `ConversationRestarted` for a new thread. A new thread's are
 * emitted when the backend's turn ends stopped, before the old thread is closed and the new one opened.
 */
export interface RunRestartedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "RunRestarted";
  /** Why, in words (the restart request's reason, or the backend's). */
  readonly reason: string;
  /** What asked for the restart. */
  readonly cause: RestartCause;
  /**
   * `expansion` only: the sections it expands, by dotted key (the one read, then its summarized ancestors;
   * for each read in turn when calls of one turn read several).
   */
  readonly sections?: readonly string[];
  /**
   * The tools the restart is for, by name: those the sections unlock (`expansion`), those that appeared and
   * the running thread cannot offer (`new-thread`), those the backend did not offer in time (`fallback`).
   * Absent for a `strategy`'s.
   */
  readonly toolNames?: readonly string[];
}

/**
 * A conversation backend (Codex) that cannot add tools to a running thread stopped it and goes on in a new
 * one, which offers `toolNames` (the tools that appeared included) and a transcript of the calls so far.
 * It details the `RunRestarted` (cause `new-thread` or `fallback`) just before it, which is the restart's
 * one event: count that one.
 */
export interface ConversationRestartedEvent extends RunEvent {
  /** The event's kind. */ readonly type: "ConversationRestarted";
  /** The tools the new thread offers, by name. */
  readonly toolNames: readonly string[];
}

/**
 * A conversation backend could not offer tools a call added in the running conversation (in `dynamic`
 * mode, it did not list them again in time): the run goes on in a new conversation that has them, as in
 * `restart` mode. It details the `RunRestarted` (cause `fallback`) just before it, which is the restart's
 * one event: count that one.
 */
export interface DynamicToolsFallbackEvent extends RunEvent {
  /** The event's kind. */ readonly type: "DynamicToolsFallback";
  /** The tools the call added that the backend did not offer in time, by name. */
  readonly toolNames: readonly string[];
  /** What the run did instead: always `"restart"`, in a new conversation. */
  readonly fallback: "restart";
  /** Why, in words (`Claude Code did not list the changed tools again within 5000 ms`). */
  readonly reason: string;
}
