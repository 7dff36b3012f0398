// The run log's records of the tool set's changes (part of its format: run-log-format.ts). Plain types:
// the viewer's page reads them too.
import type { MayHoldCutValues } from "./cut-value.js";

/** Tools joined the run. */
export interface AddedRecord {
  /** `"added"`: tools joined. */ readonly type: "added";
  /** The step at which they joined: they are offered from the next one. */
  readonly step: number;
  /** The tools that joined, by name. */
  readonly tools: readonly string[];
  /** The tool whose result caused it (`read_section`), or a dynamic source's label. */
  readonly byTool: string;
  /** The call, when a call caused it. */
  readonly by?: string;
}

/**
 * Tools left the run: a strategy removed them, the budget pushed them out, a source dropped them, or a run
 * going on from a snapshot could not restore their provider.
 */
export interface RemovedRecord extends MayHoldCutValues {
  /** `"removed"`: tools left. */ readonly type: "removed";
  /** The step at which they left: the next one no longer offers them. */
  readonly step: number;
  /** The tools that left, by name. */
  readonly tools: readonly string[];
  /**
   * A strategy removed them, the tool budget pushed them out, a source no longer offers them, or their
   * provider could not be restored as the run went on from its snapshot (`unrestored`, at step 0).
   */
  readonly reason: "strategy" | "budget" | "source" | "unrestored";
  /** The call after whose result they left; absent when a source dropped them. */
  readonly by?: string;
  /**
   * `unrestored` only: what `resolveProvider` threw (`ToolsRemovedEvent.cause`), its name and message.
   * Written with `recordContent` only: it may hold anything, a credential.
   */
  readonly cause?: string;
}
