import { EntityToolsError } from "../errors/entity-tools-error.js";
import type { ToolLoopResult } from "./tool-loop-result.js";

/**
 * `createObject` or `generateText` reached calls that need a person's approval: the run is paused, not
 * failed. `run` has the pending calls and the snapshot to resume from.
 */
export class ApprovalRequiredError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ApprovalRequiredError";

  constructor(
    /** The paused run: its `pendingApprovals` to decide and its `snapshot` to resume. */
    readonly run: ToolLoopResult<unknown>,
  ) {
    super(
      `The run is waiting for approval of ${run.pendingApprovals.map((p) => `${p.toolName} (${p.approvalId})`).join(", ")}: ` +
        "decide and call runner.resume(error.run.snapshot, { approvals })",
    );
  }
}
