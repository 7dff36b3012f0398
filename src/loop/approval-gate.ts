import type { AnyTool } from "../tools/tool.js";
import type { ModelToolCall } from "./model-port.js";

/** A call waiting for a person's decision. `approvalId` is the call's id. */
export interface PendingApproval {
  readonly approvalId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/** A person's decision on a pending call. */
export type ApprovalDecision =
  { readonly approved: true } | { readonly approved: false; readonly reason?: string };

/** Decides which calls need approval, besides tools marked `needsApproval`. */
export type ApprovalPredicate = (call: PendingApproval) => boolean | Promise<boolean>;

/** What happens to a call before it runs. */
export type GateVerdict =
  { readonly kind: "run" } | { readonly kind: "deny"; readonly reason?: string } | { readonly kind: "ask" };

/**
 * The approval rule of a run: a call of a tool marked `needsApproval`, or one the runner's predicate
 * picks, waits for a decision; a decision given on resume (keyed by the call's id) runs it or denies it.
 * Unknown tools need no approval: they fail on their own.
 */
export class ApprovalGate {
  constructor(
    private readonly predicate: ApprovalPredicate | undefined,
    private readonly decisions: Readonly<Record<string, ApprovalDecision>> = {},
  ) {}

  async verdict(call: ModelToolCall, tool: AnyTool | undefined): Promise<GateVerdict> {
    const decision = this.decisions[call.toolCallId];
    if (decision) return decision.approved ? { kind: "run" } : { kind: "deny", reason: decision.reason };
    return tool && (await this.needsApproval(call, tool)) ? { kind: "ask" } : { kind: "run" };
  }

  /**
   * The calls that wait for a decision, as the caller is shown them: `asking` (whose verdict was "ask")
   * and those of `later` that wait too. `asking` is not judged again: a predicate runs once per call.
   */
  async pending(
    asking: ModelToolCall,
    later: readonly ModelToolCall[],
    toolOf: (name: string) => AnyTool | undefined,
  ): Promise<PendingApproval[]> {
    const pending = [pendingOf(asking)];
    for (const call of later) {
      if ((await this.verdict(call, toolOf(call.toolName))).kind === "ask") pending.push(pendingOf(call));
    }
    return pending;
  }

  private async needsApproval(call: ModelToolCall, tool: AnyTool): Promise<boolean> {
    // A call its tool refuses (a forged handle) fails on its own: no person is asked about it.
    if (tool.checkInput && isRecord(call.input) && tool.checkInput(call.input) !== undefined) return false;
    if (tool.needsApproval) return true;
    return (
      this.predicate !== undefined &&
      (await this.predicate({ approvalId: call.toolCallId, toolName: tool.name, input: call.input }))
    );
  }
}

const pendingOf = (call: ModelToolCall): PendingApproval => ({
  approvalId: call.toolCallId,
  toolName: call.toolName,
  input: call.input,
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
