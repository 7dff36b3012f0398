// Approvals through MCP: a call that needs a person's approval never runs on the server's say-so. The
// client is asked through its revision's own input mechanism (2026-07-28: an `input_required` result with
// an elicitation; 2025-11-25: the SDK turns that same result into an `elicitation/create` request), and a
// client that cannot ask gets an error result saying approval is required. The question carries a signed
// state naming the exact call, so an answer applies to the call it was asked for and to nothing else.
import type { ApprovalDecidedEvent, ApprovalRequestedEvent } from "../events/approval-events.js";
import { needsApproval, type ApprovalPredicate } from "../loop/execution/approval-gate.js";
import { ApprovalRuleError, ruleFailureCause } from "../loop/execution/approval-rule-error.js";
import type { ResolvedCall } from "../loop/execution/check-tool-input.js";
import { providerBindingOf } from "../tools/provider-binding.js";
import { KeyRing } from "../tools/signing-key.js";

/** The key of the approval answer in `inputRequests` / `inputResponses`. */
export const APPROVAL_INPUT = "approval";

/** What the server does with a call, approval-wise. */
export type ApprovalStep =
  /** `approved`: a person approved it (else it needed no approval). */
  | { readonly kind: "run"; readonly approved?: true }
  /** `reason`: how the person said no (declined the question, cancelled it, or answered no). */
  | { readonly kind: "deny"; readonly text: string; readonly reason: string }
  | { readonly kind: "ask"; readonly message: string; readonly requestState: string }
  /** `cause`: what the approval rule threw, or the error saying what it returned (for observers, never the client). */
  | { readonly kind: "refuse"; readonly text: string; readonly cause?: unknown };

/** The form a client shows to ask for an approval: one required yes/no (a fresh object each time). */
export function approvalForm() {
  return {
    type: "object" as const,
    properties: {
      approve: { type: "boolean" as const, title: "Approve", description: "Run this call?" },
    },
    required: ["approve"],
  };
}

/** What the client sent back for the approval question, as the SDK's `inputResponse` reads it. */
export type ApprovalAnswer =
  | { readonly kind: "missing" }
  | { readonly kind: "elicit"; readonly action: string; readonly content?: Record<string, unknown> }
  | { readonly kind: string };

/** One call as the approval rule sees it: resolved (its input valid), with what the client sent. */
export interface ApprovalCall {
  readonly resolved: ResolvedCall;
  /** The answer the client sent with this (retried) request, if any. */
  readonly answer: ApprovalAnswer;
  /** The state the client echoed back with its answer. */
  readonly requestState: unknown;
  /** Whether the client can show an elicitation form. */
  readonly canAsk: boolean;
  /** The call's own signal: an approval rule that never settles cannot outlive it. */
  readonly signal?: AbortSignal;
}

/**
 * The approval rule of an MCP server: which calls need an approval (`needsApproval`, or the predicate), and
 * what happens to them (run once approved for exactly this tool and input; denied; asked; refused).
 */
export class McpApprovals {
  /**
   * @param keys the server's keys (its `handleKey`), else the process's random key: a question asked while
   * serving one request is honoured on the retry, served by a fresh server
   */
  constructor(
    private readonly predicate: ApprovalPredicate | undefined,
    private readonly keys: KeyRing = KeyRing.processWide(),
  ) {}

  async step(call: ApprovalCall): Promise<ApprovalStep> {
    const { tool, input } = call.resolved;
    let needed: boolean;
    try {
      needed = await needsApproval(this.predicate, call.resolved, call.signal, "approval");
    } catch (error) {
      if (!(error instanceof ApprovalRuleError)) throw error; // the call's cancellation
      // The rule's own message may hold anything (a credential): the client reads only that it failed,
      // the server's observers what it threw, or the error saying what it returned (`ToolFailed.cause`).
      return {
        kind: "refuse",
        text: `Not run: the server's approval rule failed for this call of "${tool.name}". Nothing ran; the server's operator can see why.`,
        cause: ruleFailureCause(error),
      };
    }
    if (!needed) return { kind: "run" };
    const state = this.stateOf(tool.name, input);
    const answer = call.answer;
    if (answer.kind === "elicit" && this.matches(call.requestState, tool.name, input)) {
      const { action, content } = answer as { action: string; content?: Record<string, unknown> };
      if (action === "accept" && content?.approve === true) return { kind: "run", approved: true };
      return {
        kind: "deny",
        text: `Not run: a person denied this call of "${tool.name}".`,
        reason: DENIALS[action] ?? `the client answered "${action}"`,
      };
    }
    if (!call.canAsk)
      return {
        kind: "refuse",
        text:
          `Not run: "${tool.name}" needs a person's approval, and this client cannot ask for one (it does not ` +
          "support elicitation). Call it from a client that supports elicitation, or approve it in the application.",
      };
    return {
      kind: "ask",
      message: `Approve this call of "${tool.name}" with ${JSON.stringify(input ?? {})}?`,
      requestState: state,
    };
  }

  /** The signed name of one call (tool and input): what an answer must echo to count for it. */
  private stateOf(toolName: string, input: unknown): string {
    return this.keys.sign(stateInput(toolName, input));
  }

  /** Whether the echoed state names this call, signed with any of the server's keys (rotation). */
  private matches(echoed: unknown, toolName: string, input: unknown): boolean {
    return typeof echoed === "string" && this.keys.verify(stateInput(toolName, input), echoed);
  }
}

/** How a person said no, by the elicitation's action (an accepted form says no with `approve: false`). */
const DENIALS: Readonly<Record<string, string>> = {
  accept: "the person answered no",
  decline: "the person declined",
  cancel: "the person dismissed the question",
};

/**
 * What observers (and the run log) are told of a call's approval step, as a run tells them: a question
 * asked, or a person's decision. The call's id names the approval (on 2026-07-28 the decision comes with
 * the client's retried request, which has an id of its own). A call that needed no approval, or that was
 * refused without asking, tells nothing here: its `ToolFailed` says why.
 */
export function approvalEvent(
  step: ApprovalStep,
  resolved: ResolvedCall,
): Omit<ApprovalRequestedEvent, "runId"> | Omit<ApprovalDecidedEvent, "runId"> | undefined {
  const { call, tool, input } = resolved;
  const id = { approvalId: call.toolCallId, toolName: call.toolName };
  switch (step.kind) {
    case "ask": {
      const provider = providerBindingOf(tool, input);
      return { type: "ApprovalRequested", ...id, input, ...(provider ? { provider } : {}) };
    }
    case "run":
      return step.approved ? { type: "ApprovalDecided", ...id, approved: true } : undefined;
    case "deny":
      return { type: "ApprovalDecided", ...id, approved: false, reason: step.reason };
    default:
      return undefined;
  }
}

function stateInput(toolName: string, input: unknown): string {
  return `entity-tools/mcp-approval\n${toolName}\n${JSON.stringify(input ?? {})}`;
}
