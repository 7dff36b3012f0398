// The tools a run added, across its attempts: the one record `injectedTools` lists and `toolsInjected`
// counts (a restart starts a new attempt, not a new record).
import type { RunCounters } from "../../events/run-counters.js";
import type { AnyTool } from "../../tools/tool.js";

/**
 * Every tool a run added, in order (what `ToolLoopResult.injectedTools` lists and `counters.toolsInjected`
 * counts). One an earlier attempt added that a later one adds again (after a restart) is the same
 * addition: listed and counted once, at its first place, bound anew.
 */
export class RunAdditions {
  private readonly added: AnyTool[] = [];
  /** Where in `added` each tool an earlier attempt added is, by name, until this attempt adds it again. */
  private addedBefore = new Map<string, number>();

  /** `counters`: the run's, whose `toolsInjected` this record counts. */
  constructor(private readonly counters: RunCounters) {}

  /**
   * Lists what a resumed run added before its pause (its restored tools not offered up front): listed,
   * not counted, since its snapshot's counters did.
   */
  restore(tools: readonly AnyTool[]): void {
    for (const tool of tools) this.added.push(tool);
  }

  /** A new attempt begins: what the earlier ones added is what it may add again. */
  newAttempt(): void {
    this.addedBefore = new Map(this.added.map((tool, at) => [tool.name, at]));
  }

  /** Records and counts the tools an addition injected (one added again by this attempt: bound anew). */
  record(tools: readonly AnyTool[]): void {
    for (const tool of tools) {
      const at = this.addedBefore.get(tool.name);
      if (at === undefined) {
        this.added.push(tool);
        this.counters.toolsInjected++;
        continue;
      }
      this.added[at] = tool;
      this.addedBefore.delete(tool.name);
    }
  }

  /** Every tool added, in order (a copy). */
  list(): readonly AnyTool[] {
    return [...this.added];
  }
}
