import { InvalidSettingError } from "../../errors/entity-tools-error.js";
import { nodeUtil } from "../../lazy/node-builtins.js";
import { declaredInputOf } from "../../tools/declared-input.js";
import { providerBindingOf } from "../../tools/provider-binding.js";
import type { ProviderToolIdentity } from "../../tools/provider-identity.js";
import type { AnyTool } from "../../tools/tool.js";
import { checkToolInput, type ResolvedCall } from "./check-tool-input.js";
import type { ModelToolCall } from "../ports/model-port.js";
import { untilAborted } from "../errors/until-aborted.js";
import { ApprovalRuleError, type ApprovalRuleName } from "./approval-rule-error.js";
import { snapshotCopy } from "../snapshot/snapshot-copy.js";

/**
 * A call waiting for a person's decision (also what an {@link ApprovalPredicate} judges). `approvalId` is
 * the call's id. Only calls that can run are judged or listed: the input has passed the tool's schema (an
 * invalid call fails without asking anyone). `input` is a copy: editing it changes nothing that runs. A
 * predicate gets it converted to the method's declared types (a `Date` parameter is a `Date`); the pending
 * approvals a run returns hold it as JSON.
 */
export interface PendingApproval {
  /** The call's id: the key of its decision in `resume(snapshot, { approvals })`. */
  readonly approvalId: string;
  /**
   * The name the model called. A renamed provider tool keeps its method as the last `_` part
   * (`acct_42_<hash>_close`), so a rule on the name's end still matches; `provider.method` is exact.
   */
  readonly toolName: string;
  /** The input the model gave, checked against the tool's schema: JSON here, a copy for a predicate. */
  readonly input: unknown;
  /**
   * For a discovered provider's tool: the provider class's source name, its id and the id's type
   * (`idType`: a bigint id is its digits as text), and the method, whatever name the tool got
   * (`acct_42_close_<hash>` when two providers' names collided). For a handle tool, the provider the
   * call's handle names. Absent for other tools (plain objects, `defineTool`, MCP tools) and for a call
   * whose handle is not valid (it fails without asking anyone).
   */
  readonly provider?: ProviderToolIdentity;
}

/** A person's decision on a pending call. */
export type ApprovalDecision =
  { readonly approved: true } | { readonly approved: false; readonly reason?: string | undefined };

/** Decides which calls need approval, besides tools marked `needsApproval`. */
export type ApprovalPredicate = (call: PendingApproval) => boolean | Promise<boolean>;

/** A run's predicate is the runner's `withApproval` rule. */
const RULE: ApprovalRuleName = "withApproval";

/** A decision a resumed run received for one of the calls its snapshot left waiting. */
export interface GivenDecision {
  readonly approvalId: string;
  readonly toolName: string;
  readonly approved: boolean;
  readonly reason?: string;
}

/** What happens to a call before it runs. */
export type GateVerdict =
  { readonly kind: "run" } | { readonly kind: "deny"; readonly reason?: string } | { readonly kind: "ask" };

/**
 * The approval rule of a run: a call of a tool marked `needsApproval`, or one the runner's predicate
 * picks, waits for a decision. A decision given on resume applies to exactly one call: one that was
 * waiting in the snapshot, with the decision's id AND the same tool and input, and only once. A decision
 * for an id that was not waiting decides nothing, and a later call that reuses a decided id is judged
 * afresh. Decisions are read by own key only (a call id `constructor` or `__proto__` is just an id).
 * Unknown tools need no approval: they fail on their own.
 */
export class ApprovalGate {
  private readonly decided = new Map<string, { call: ModelToolCall; decision: ApprovalDecision }>();
  /** The decisions that apply to a waiting call (each once), in the order the calls wait. */
  readonly given: readonly GivenDecision[];

  /**
   * @param decisions the caller's decisions by call id
   * @param waiting the calls the snapshot left waiting: the only ones a decision can apply to
   */
  constructor(
    private readonly predicate: ApprovalPredicate | undefined,
    decisions: Readonly<Record<string, ApprovalDecision>> = {},
    waiting: readonly ModelToolCall[] = [],
  ) {
    const given = new Map(Object.entries(decisions));
    for (const call of waiting) {
      const decision = given.get(call.toolCallId);
      if (decision !== undefined && !this.decided.has(call.toolCallId))
        this.decided.set(call.toolCallId, { call, decision });
    }
    this.given = [...this.decided.values()].map(({ call, decision }) => {
      const reason = reasonOf(decision);
      return {
        approvalId: call.toolCallId,
        toolName: call.toolName,
        approved: decision.approved === true,
        ...(reason === undefined ? {} : { reason }),
      };
    });
  }

  /**
   * What happens to a resolved call (its input valid): the decision given for it on resume, else "ask"
   * when it needs approval, else "run". A predicate that never settles cannot outlive `signal`.
   *
   * @throws ApprovalRuleError when the predicate breaks (see {@link needsApproval})
   */
  async verdict(resolved: ResolvedCall, signal?: AbortSignal): Promise<GateVerdict> {
    const decision = this.take(resolved.call);
    if (decision)
      return decision.approved === true ? { kind: "run" } : { kind: "deny", reason: reasonOf(decision) };
    return (await needsApproval(this.predicate, resolved, signal, RULE)) ? { kind: "ask" } : { kind: "run" };
  }

  /**
   * The calls that wait for a decision, as the caller is shown them: `asking` (whose verdict was "ask")
   * and those of `later` that could run (known tool, valid input) and need approval. `asking` is not
   * judged again: a predicate runs once per call. A later call is listed even when this resume brought a
   * decision for it: the run pauses before it, and decisions do not outlive the resume they came with,
   * so it is asked for again.
   *
   * @throws ApprovalRuleError when the predicate breaks on a later call (see {@link needsApproval})
   */
  async pending(
    asking: ResolvedCall,
    later: readonly ModelToolCall[],
    toolOf: (name: string) => AnyTool | undefined,
    signal?: AbortSignal,
  ): Promise<PendingApproval[]> {
    const pending = [pendingOf(asking, false)];
    for (const call of later) {
      const tool = toolOf(call.toolName);
      const resolved = tool && checkToolInput(call, tool);
      if (resolved?.ok && (await needsApproval(this.predicate, resolved, signal, RULE)))
        pending.push(pendingOf(resolved, false));
    }
    return pending;
  }

  /** The decision on `call`, used up: only for the waiting call it was given for, same tool and input. */
  private take(call: ModelToolCall): ApprovalDecision | undefined {
    const entry = this.decided.get(call.toolCallId);
    if (
      !entry ||
      entry.call.toolName !== call.toolName ||
      !nodeUtil().isDeepStrictEqual(entry.call.input, call.input)
    )
      return undefined;
    this.decided.delete(call.toolCallId);
    return entry.decision;
  }
}

/**
 * Whether a resolved call (its input valid) waits for a person: its tool is marked `needsApproval`, or the
 * predicate picks it, judging the call as {@link PendingApproval} shows it (the declared-type input, the
 * provider identity), raced against `signal`. The one rule of every path that runs calls (a run, the MCP
 * server); the call pipeline asks it only after the input passed.
 *
 * @param rule where the predicate was given, for the error that says it broke
 * @throws ApprovalRuleError when the predicate throws, rejects or answers anything but a boolean: `undefined`
 * (a rule that forgot its `return`) read as "no approval" and ran the call unasked, `"no"` as "ask"
 * @throws the signal's reason once it fired (a cancellation is not the rule's failure)
 */
export async function needsApproval(
  predicate: ApprovalPredicate | undefined,
  resolved: ResolvedCall,
  signal: AbortSignal | undefined,
  rule: ApprovalRuleName,
): Promise<boolean> {
  if (resolved.tool.needsApproval) return true;
  if (predicate === undefined) return false;
  const { toolCallId, toolName } = resolved.call;
  let answer: unknown;
  try {
    answer = await untilAborted(predicate(pendingOf(resolved, true)), signal);
  } catch (thrown) {
    if (signal?.aborted) throw signal.reason ?? thrown;
    throw new ApprovalRuleError(rule, toolName, toolCallId, { thrown });
  }
  if (typeof answer !== "boolean")
    throw new ApprovalRuleError(rule, toolName, toolCallId, { returned: answer });
  return answer;
}

/** What a decision must be, in the words of the error that refuses another value. */
const DECISION_SHAPE = "{ approved: true } or { approved: false, reason?: string }";

/**
 * Refuses `resume`'s `approvals` unless each is an {@link ApprovalDecision}, before anything runs. Decisions
 * often come from a form or a JSON body: `{ approved: "true" }` or `{}` read as a denial with no reason
 * (the call refused, the model told a person denied it), and `null` failed with a `TypeError`.
 *
 * @throws InvalidSettingError naming the decision's id, e.g. `approvals["c1"] must be { approved: true } or
 * { approved: false, reason?: string }, got {"approved":"true"}`
 */
export function checkDecisions(decisions: unknown): void {
  if (decisions === undefined) return;
  if (typeof decisions !== "object" || decisions === null || Array.isArray(decisions))
    throw new InvalidSettingError("approvals", decisions, `an object of decisions by approvalId`);
  for (const [id, decision] of Object.entries(decisions)) {
    const { approved, reason } = (decision ?? {}) as { approved?: unknown; reason?: unknown };
    const valid =
      typeof decision === "object" &&
      decision !== null &&
      (approved === true || (approved === false && (reason === undefined || typeof reason === "string")));
    if (!valid) throw new InvalidSettingError(`approvals[${JSON.stringify(id)}]`, decision, DECISION_SHAPE);
  }
}

function reasonOf(decision: ApprovalDecision): string | undefined {
  const reason = (decision as { reason?: unknown }).reason;
  return typeof reason === "string" ? reason : undefined;
}

/**
 * A call as a person (or a predicate) sees it: its input copied (for a predicate, in the declared types),
 * its provider named.
 */
function pendingOf(resolved: ResolvedCall, declared: boolean): PendingApproval {
  const { call, tool, input } = resolved;
  const provider = providerBindingOf(tool, input);
  const copy = snapshotCopy(input) as Record<string, unknown>;
  return {
    approvalId: call.toolCallId,
    toolName: call.toolName,
    input: declared ? declaredInputOf(tool, copy) : copy,
    ...(provider ? { provider } : {}),
  };
}
