// The approval events: a run pauses before calls that wait for a person, and a resumed run applies the
// decisions; the MCP server asks its client's person and reads the answer (the run log and the viewer
// show both).
import type { ProviderToolIdentity } from "../tools/provider-identity.js";

/**
 * A call waits for a person's decision: the run pauses (`awaiting-approval`) before it, or the MCP server
 * asks its client.
 */
export interface ApprovalRequestedEvent {
  /** Identifies the run. */
  readonly runId: string;
  /** The event's kind. */ readonly type: "ApprovalRequested";
  /** The call's id, which the decision names (`resume(snapshot, { approvals: { [approvalId]: … } })`). */
  readonly approvalId: string;
  /** The tool the call would run, by name. */
  readonly toolName: string;
  /** The input the model gave. */
  readonly input: unknown;
  /** For a discovered provider's tool: the provider and the method. */
  readonly provider?: ProviderToolIdentity;
}

/** A resumed run (or the MCP server, answered by its client) applies a person's decision to a call. */
export interface ApprovalDecidedEvent {
  /** Identifies the run. */
  readonly runId: string;
  /** The event's kind. */ readonly type: "ApprovalDecided";
  /** The call's id, as in its `ApprovalRequested`. */
  readonly approvalId: string;
  /** The tool the call runs, by name. */
  readonly toolName: string;
  /** True when the person allowed the call; false when they denied it. */
  readonly approved: boolean;
  /** A denial's reason, as the person gave it (through MCP: how they said no, `the person declined`). */
  readonly reason?: string;
}
