import type { ToolResultPart } from "ai";
import { serverFailureText } from "../../errors/server-failure.js";
import { throwIfAborted, ToolLoopError } from "../errors/errors.js";
import { ApprovalRuleError, ruleFailureCause } from "../execution/approval-rule-error.js";
import type { ResolvedCall } from "../execution/check-tool-input.js";
import type { ApprovalAnswer, ToolCallExecutor } from "../execution/tool-call-executor.js";
import type { ModelToolCall } from "../ports/model-port.js";
import type { Run } from "../run/run.js";
import { answerIndexOf, type WaitingCalls } from "../snapshot/paused-groups.js";
import type { PendingApproval } from "../execution/approval-gate.js";
import { laterStop, type RunStop, type StepOutcome, type ToolCallsOutcome } from "./step-outcome.js";

const CANCELLED_TEXT = "The run was cancelled before this tool finished";
/** Why the calls of a response that the run's end left unanswered did not run. */
const ENDED = "the run ended before this call ran";
/** A call whose approval rule broke: not what it threw, which may hold anything (see `ServerFailure`). */
const RULE_BROKE_TEXT = `Not run: ${serverFailureText("the application's approval rule")}.`;
/** A call whose run ended (a strategy's failure after it, a backend's timeout) once it had started. */
const STARTED_TEXT =
  "Not finished: the run ended after this call started. It may have run; its result was not kept.";

/** The calls of one model response whose results are still being written. */
export interface OpenCalls {
  /** The calls still to answer (on resume, those that waited). */
  readonly calls: readonly ModelToolCall[];
  /** The content of the response's `role: "tool"` message, already in the history. */
  readonly results: ToolResultPart[];
  /** How many results the message had before these calls (earlier calls of a paused message). */
  readonly start: number;
  readonly iteration: number;
  closed: boolean;
  /** The call let through to run last (approved or needing no approval): it may have run, or still runs. */
  started?: string;
  /** Why a call that still needs a decision is not run instead of pausing the run (a continued conversation). */
  readonly undecided?: string;
  /** Calls given a new id because they repeat an earlier call's of the response: new id → that id. */
  readonly repeats?: ReadonlyMap<string, string>;
}

/**
 * The tool calls of a run's model responses, each call through the pipeline with the run's approval gate
 * as its approval step; a held call pauses the run (the waiting calls are kept in the run, for the
 * snapshot), and every call of a response ends with a result, whatever happens. A step backend answers
 * one response at a time; a conversation backend may call back again before a call ended (Codex runs a
 * response's calls at once), so each batch is closed on its own, and the run's end closes every one.
 */
export class CallBatches {
  private readonly open = new Set<OpenCalls>();
  /**
   * The calls of every batch held in this attempt that wait for a person, in the order they were held:
   * a conversation backend can hold several batches before its turn stops (Codex runs a response's
   * calls at once, each its own batch), and the run pauses with all of them.
   */
  private readonly held: PendingApproval[] = [];

  constructor(
    private readonly run: Run,
    private readonly executor: ToolCallExecutor,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /**
   * Answers the calls a resumed snapshot left waiting, message by message (`undecided`: why one still
   * undecided is not run), each message's results in its own tool message. Every message's calls are
   * answered, as their calls were made together (a conversation backend's, at once): a pause lists every
   * call still undecided, and wins over the restarts they asked for, which add up (see `laterStop`).
   */
  async resume(paused: readonly WaitingCalls[], undecided: string | undefined): Promise<StepOutcome> {
    const { history } = this.run;
    this.run.hold(undefined); // answered now, or held again below
    let stop: RunStop | undefined;
    for (const group of paused) {
      const at = answerIndexOf(history, group);
      if (at === undefined)
        throw new ToolLoopError("The snapshot's paused calls do not follow their model message");
      const results = [...(history[at]!.content as ToolResultPart[])];
      history[at] = { role: "tool", content: results };
      const open = { ...group, results, start: results.length, closed: false, undecided };
      stop = laterStop(stop, (await this.execute(open)).next);
    }
    return stop ?? { type: "continue" };
  }

  /** The result of a call that repeats the id `id` of an earlier call of its response: it is not run. */
  repeated(call: ModelToolCall, iteration: number, id: string): ToolResultPart {
    return this.executor.fail(
      call,
      iteration,
      "invalid-input",
      `Not run: another call in this message already has the id "${id}".`,
    );
  }

  /**
   * Runs the calls of one response through the pipeline, in order, and gives each a result: a repeated id,
   * or a call a cancellation or restart stops, gets an error result; a held call pauses the batch.
   *
   * @throws ToolNotFoundError after too many unknown tools in a row; the cancellation; a strategy's failure
   */
  async execute(open: OpenCalls): Promise<ToolCallsOutcome> {
    this.open.add(open);
    const seen = new Set<string>(open.results.map((r) => r.toolCallId));
    try {
      for (const [index, call] of open.calls.entries()) {
        throwIfAborted(this.signal);
        const repeated =
          open.repeats?.get(call.toolCallId) ?? (seen.has(call.toolCallId) ? call.toolCallId : undefined);
        if (repeated !== undefined) {
          open.results.push(this.repeated(call, open.iteration, repeated));
          continue;
        }
        seen.add(call.toolCallId);
        const outcome = await this.executor.execute(call, open.iteration, this.run.history, (resolved) =>
          this.approval(resolved, open),
        );
        if (outcome.held) {
          const rest = open.calls.slice(index);
          const waiting = rest.filter((c) => !open.repeats?.has(c.toolCallId));
          // Judged before anything is held: a rule that breaks on a later call ends the run with every
          // call of the message answered, none left waiting.
          const pending = await this.run.approvals.pending(
            outcome.held,
            waiting.slice(1),
            (name) => this.run.registry.get(name),
            this.signal,
          );
          // A repeated call behind the held one is answered now: a resumed run no longer knows it repeats.
          for (const c of rest) {
            const repeatedId = open.repeats?.get(c.toolCallId);
            if (repeatedId !== undefined) open.results.push(this.repeated(c, open.iteration, repeatedId));
          }
          this.run.hold({ iteration: open.iteration, calls: waiting });
          open.closed = true; // the waiting calls get their results on resume, not now
          this.open.delete(open);
          // Every batch held so far waits: the pause lists them all (see `held`).
          this.held.push(...pending);
          return { next: { type: "pause", pending: [...this.held] }, results: open.results };
        }
        const { part, restart } = outcome;
        if (open.closed) break; // the run ended while this call ran; its result came too late
        open.results.push(part);
        if (restart) {
          // The model reads this after a resume, where the run goes on in the same conversation.
          this.close(
            open,
            "the run restarts with an updated prompt (an earlier call in this message changed it); call it again if you still need it",
          );
          return { next: { type: "restart", requests: [restart] }, results: open.results };
        }
      }
    } catch (error) {
      // The call the approval rule broke on says so (the run ends with the rule's error), the rest as below.
      if (error instanceof ApprovalRuleError) this.close(open, ENDED, error);
      throw error;
    } finally {
      this.close(open, ENDED);
    }
    const tooMany = this.executor.tooManyUnknownTools();
    if (tooMany) throw tooMany;
    return { next: { type: "continue" }, results: open.results };
  }

  /** The approval step of a valid call: run, refused (denied, or undecided in a continued conversation), held. */
  private async approval(resolved: ResolvedCall, open: OpenCalls): Promise<ApprovalAnswer> {
    const verdict = await this.run.approvals.verdict(resolved, this.signal);
    if (verdict.kind === "run") {
      open.started = resolved.call.toolCallId;
      return verdict;
    }
    if (verdict.kind === "deny") {
      return { kind: "refuse", reason: "denied", text: deniedText(verdict.reason) };
    }
    if (open.undecided) return { kind: "refuse", reason: "not-run", text: `Not run: ${open.undecided}.` };
    return { kind: "hold" };
  }

  /** Gives every call of the open responses that has no result yet a "cancelled" or "not run" result. */
  closeOpen(why: string): void {
    for (const open of [...this.open]) this.close(open, why);
  }

  /** Answers the calls of `open` that have none; `broke`: the approval rule's failure on one of them. */
  private close(open: OpenCalls, why: string, broke?: ApprovalRuleError): void {
    this.open.delete(open);
    if (open.closed) return;
    open.closed = true;
    const cancelled = this.signal?.aborted === true;
    for (const call of open.calls.slice(open.results.length - open.start)) {
      // "Not run" tells the model it may make the call again: never said of one that may have run.
      const part = cancelled
        ? this.executor.fail(call, open.iteration, "cancelled", CANCELLED_TEXT)
        : call.toolCallId === open.started
          ? this.executor.fail(call, open.iteration, "cancelled", STARTED_TEXT)
          : call.toolCallId === broke?.toolCallId
            ? this.executor.fail(call, open.iteration, "not-run", RULE_BROKE_TEXT, ruleFailureCause(broke))
            : this.executor.fail(call, open.iteration, "not-run", `Not run: ${why}.`);
      open.results.push(part);
    }
  }
}

/**
 * What the model reads for a denied call: the person's reason as they wrote it, trimmed, ended with one
 * period (`Too big.` read `…: Too big..`; a blank reason is no reason).
 */
function deniedText(reason: string | undefined): string {
  const why = reason?.trim() ?? "";
  if (why === "") return "Not run: a person denied this call.";
  return `Not run: a person denied this call: ${why}${/[.!?]$/.test(why) ? "" : "."}`;
}
