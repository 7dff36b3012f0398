import type { ToolLoopEvent } from "./tool-loop-event.js";

/**
 * Totals of one run: its events counted (each counter names its event), and the tools it added. Like
 * `totalIterations` and `usage`, a resumed run's include what came before its pause, and a continued
 * conversation's turn the earlier turns'.
 */
export interface RunCounters {
  /** Model calls (steps) of the run, earlier attempts and a resumed run's earlier part included. */
  modelCalls: number;
  /** Tool calls that ended, failed ones included. */
  toolCalls: number;
  /** Tool calls that ended in an error result (unknown tool, invalid input, threw, timeout, denied, …). */
  toolFailures: number;
  /**
   * Tools added during the run (a provider's, a section's, a source's): one for each tool that
   * `ToolLoopResult.injectedTools` lists. A tool an attempt adds again after a restart is the same
   * addition and counts once (its `ToolsInjected` is emitted again: the new attempt offers it anew); one
   * the budget evicted that a later call adds again counts again, as it is listed again. A resumed run
   * keeps the count of its part before the pause, a tool evicted then included (its snapshot cannot name
   * that one, so the list lacks it); a continued conversation's turn lists its own additions but counts
   * the conversation's, as every counter does.
   */
  toolsInjected: number;
  /**
   * Providers the run found, each provider identity (class and id) once: an instance bound or a handle
   * made live. One found again (by a restart's new attempt, after the budget evicted its tools, or as
   * another instance with the same id) has its `ToolProviderDiscovered` again but counts once. A resumed
   * run keeps its part before the pause; one found then whose tools the snapshot no longer held (evicted
   * or removed before the pause) counts again if found after it.
   */
  providersDiscovered: number;
  /**
   * Prompt sections expanded by a read whose tools joined the running conversation (`VisibilityExpanded` in
   * `dynamic` mode). A read that unlocks no tools (`content`) is counted neither here nor as a restart.
   */
  dynamicExpansions: number;
  /**
   * Times the run restarted, whatever asked for it (`RunRestarted`, one each, with its `cause`): a section
   * read that unlocked tools the backend cannot add mid-conversation (one restart however many sections it
   * expanded), a strategy's `restart`, a conversation backend's new thread, and its fallback from `dynamic`.
   */
  restarts: number;
}

export function emptyCounters(): RunCounters {
  return {
    modelCalls: 0,
    toolCalls: 0,
    toolFailures: 0,
    toolsInjected: 0,
    providersDiscovered: 0,
    dynamicExpansions: 0,
    restarts: 0,
  };
}

/** Sets the known counters from `earlier` (a resumed snapshot's), by own key: nothing else is copied. */
export function restoreCounters(counters: RunCounters, earlier: RunCounters): void {
  for (const key of Object.keys(emptyCounters()) as (keyof RunCounters)[]) counters[key] = earlier[key];
}

/**
 * Updates `counters` for one event. `toolsInjected` and `providersDiscovered` are not events' counts: the
 * run counts the first as it records what it added (`Run.recordAdded`), where a restart's repeated
 * additions are known, and the second as it reports providers (`RunEvents.discovered`), by identity.
 */
export function countEvent(counters: RunCounters, event: ToolLoopEvent): void {
  switch (event.type) {
    case "ToolLoopIteration":
      counters.modelCalls++;
      break;
    case "ToolInvoked":
      counters.toolCalls++;
      break;
    case "ToolFailed":
      counters.toolCalls++;
      counters.toolFailures++;
      break;
    case "VisibilityExpanded":
      if (event.mode === "dynamic") counters.dynamicExpansions++;
      break;
    case "RunRestarted":
      counters.restarts++;
      break;
    default:
      break;
  }
}
