import type { ToolResultPart } from "ai";
import {
  addUsage,
  countedUsage,
  emptyUsage,
  isPricedCount,
  isUsageUnknown,
  usageProblemWarning,
} from "../../events/token-usage.js";
import type { JsonSchema } from "../../schema/json-schema.js";
import type { AnyTool } from "../../tools/tool.js";
import { MaxIterationsExceededError, type ToolLoopError, throwIfAborted } from "../errors/errors.js";
import { ToolCallExecutor } from "../execution/tool-call-executor.js";
import { FinalAnswerCheck } from "./final-answer-check.js";
import type { ModelStepResult, ModelToolCall } from "../ports/model-port.js";
import type { RunEnd, StepOutcome, ToolCallsOutcome } from "./step-outcome.js";
import { SourceWatch } from "../sources/source-watch.js";
import type { Run } from "../run/run.js";
import { outputInstruction } from "./structured-output.js";
import { untilAborted } from "../errors/until-aborted.js";
import { joinSignals, type JoinedSignal } from "../errors/joined-signal.js";
import { CallBatches } from "./call-batch.js";
import { recordedTurn } from "./recorded-turn.js";
import type { RunSessionInit } from "./run-session-init.js";
import type { ModelRespondedEvent } from "../../events/tool-loop-event.js";

/**
 * The rules of one attempt of a {@link Run} (which holds its history, registry, totals, counters and
 * waiting calls), shared by every backend's driver: the iteration cap, the call pipeline, the
 * final-answer check, the unknown-tool limit, cancellation and the error the run ends with. A driver only
 * decides who calls whom: it begins an iteration, records what the model said, and hands over tool calls
 * or a final answer; each returns what happens next.
 *
 * An **iteration** is one model response the run handles: on a step backend, one model call; on a
 * conversation backend (Codex), each tool call it asks us to run and each final message, because each
 * stands for a response of its model and its own model calls are not visible to us.
 */
export class RunSession {
  /** The run: what a snapshot records and the run's error carries. */
  readonly run: Run;
  /** The configured system prompt plus, for structured output, the JSON instruction. */
  readonly system: string | undefined;
  /** The schema of the run's structured output, when it has one. */
  readonly outputSchema: JsonSchema | undefined;
  readonly signal: AbortSignal | undefined;
  /** Aborted when the run fails, so a tool still running then (a backend's turn timed out) can stop. */
  private readonly ended = new AbortController();
  /** What stops the calls: the run's signal or the session's end, let go of when the session ends. */
  private readonly callSignal: JoinedSignal;
  private readonly executor: ToolCallExecutor;
  private readonly answers: FinalAnswerCheck;
  private readonly batches: CallBatches;
  private readonly watch: SourceWatch;

  constructor(private readonly init: RunSessionInit) {
    const { run } = init;
    this.run = run;
    this.callSignal = joinSignals(init.signal ? [init.signal, this.ended.signal] : [this.ended.signal]);
    this.signal = init.signal;
    this.outputSchema = init.outputSchema;
    this.system =
      [init.system, init.outputSchema && outputInstruction(init.outputSchema)].filter(Boolean).join("\n\n") ||
      undefined;
    this.executor = new ToolCallExecutor({
      registry: run.registry,
      events: run.events,
      settings: run.settings,
      strategies: init.strategies,
      middleware: init.middleware,
      signal: this.callSignal.signal,
      lost: init.lost,
      mediaTypes: init.toolResultMediaTypes,
      added: (tools) => run.recordAdded(tools),
    });
    this.answers = new FinalAnswerCheck(init.outputSchema, run.settings.maxOutputRepairs, run.events);
    this.batches = new CallBatches(run, this.executor, init.signal);
    this.watch = new SourceWatch(init.sources ?? [], run.registry, run.events, init.signal, (tools, label) =>
      this.executor.injectFromSource(tools, label),
    );
  }

  /**
   * Re-lists the sources that announced a change (see {@link SourceWatch.refresh}). Called by drivers
   * between steps, never during one.
   *
   * @throws ToolSourceError when a source cannot be listed
   */
  refreshSources(): Promise<void> | undefined {
    return this.watch.refresh();
  }

  /**
   * Starts an iteration: checks cancellation and the cap, and tells observers which tools are offered.
   *
   * @throws ToolLoopAbortedError, MaxIterationsExceededError
   */
  beginIteration(): readonly AnyTool[] {
    throwIfAborted(this.signal);
    const { registry, settings, events } = this.run;
    // The run's step number, not the attempt's: a restart or a resume does not make the allowance new, and
    // the step the cap stops is the one numbered `maxIterations + 1` (see `Run.iteration`).
    if (this.run.iteration >= settings.maxIterations)
      throw new MaxIterationsExceededError(settings.maxIterations);
    const iteration = this.run.countIteration();
    const tools = registry.all();
    events.emit({ type: "ToolLoopIteration", iteration, toolNames: registry.names() });
    return tools;
  }

  /** `work` (this step's model call) inside the observers' scope for the step (see `RunEvents.within`). */
  inStep<T>(work: () => Promise<T>): Promise<T> {
    return this.run.events.within({ kind: "step" }, work);
  }

  /**
   * Awaits `work` (a model call, a turn) unless the run is cancelled first, so a backend that ignores the
   * signal cannot keep a cancelled run pending.
   */
  untilAborted<T>(work: Promise<T>): Promise<T> {
    return untilAborted(work, this.signal);
  }

  /**
   * Records one model response: its messages (an empty one still counts), its calls and its usage, with
   * how long the call took (`durationMs`) for observers. `tokens` says where its tokens are: on it, so a
   * response without them has an unknown usage (`usageUnknown`); or `"with-turn"`, a conversation
   * backend's call whose tokens come with its turn's.
   */
  recordResponse(
    response: Pick<
      ModelStepResult,
      "responseMessages" | "toolCalls" | "text" | "usage" | "modelId" | "responseModelId" | "warnings"
    >,
    durationMs = 0,
    tokens: "reported" | "with-turn" = "reported",
  ): void {
    const { events, iteration } = this.run;
    this.run.append(...recordedTurn(response.responseMessages));
    for (const message of response.warnings ?? []) events.emit({ type: "ModelWarning", iteration, message });
    this.responded(response, durationMs, tokens === "reported");
  }

  /**
   * Reports tokens a conversation backend counted for a turn as a further `ModelResponded` of the turn's
   * last step, with no calls: a turn that a stop ended (a new thread, a pause), whose last call was
   * reported when it came in; and the turn's tokens of each other model than its own. Nothing for none.
   */
  recordTurnTokens(turn: Pick<ModelStepResult, "text" | "usage" | "modelId">): void {
    const { usage } = turn;
    if (usage && Object.values(usage).some((n) => n !== undefined && n > 0))
      this.responded({ ...turn, toolCalls: [] }, 0, true);
  }

  /** Adds a response's tokens to the run's and tells observers: the one `ModelResponded` of every driver. */
  private responded(
    response: Pick<ModelStepResult, "toolCalls" | "text" | "usage" | "modelId" | "responseModelId">,
    durationMs: number,
    reported: boolean,
  ): void {
    const { events, iteration } = this.run;
    const { usage, problems } = countedUsage(response.usage);
    const unknown = reported && isUsageUnknown(usage);
    // An input or output count that is none makes the call's usage unknown: that warning names it.
    const because = unknown ? problems.filter((p) => isPricedCount(p.key)) : [];
    for (const problem of problems)
      if (!because.includes(problem))
        events.emit({ type: "ModelWarning", iteration, message: usageProblemWarning(problem) });
    this.run.totals.addUsage(usage);
    // Nothing counts a response, and its warning of unknown usage has no reader without an observer: the
    // event (a copy of its calls and usage) is built only for one.
    if (!events.observed) return;
    const event: ModelRespondedInit = {
      type: "ModelResponded",
      iteration,
      text: response.text,
      toolCalls: response.toolCalls.map((c) => ({ toolName: c.toolName, input: c.input })),
      usage: addUsage(emptyUsage(), usage),
      durationMs,
    };
    // Set, not spread: three spreads of a literal each step cost more than the event's other fields.
    if (response.modelId !== undefined) event.modelId = response.modelId;
    if (response.responseModelId !== undefined) event.responseModelId = response.responseModelId;
    if (unknown) event.usageUnknown = true;
    events.emit(event);
    if (unknown) events.usageUnknown({ modelId: response.modelId, iteration }, because);
  }

  /**
   * Runs the calls of one model response in order and records every call with a result, whatever
   * happens: a call that repeats an earlier id, or that a cancellation or restart stops, gets an error
   * result too, so the history stays well-formed.
   *
   * @throws ToolNotFoundError after too many unknown tools in a row; the cancellation; a strategy's failure
   */
  async handleToolCalls(
    calls: readonly ModelToolCall[],
    /** Calls that repeat an id of an earlier call of the response (new id → that id): answered, not run. */
    repeats?: ReadonlyMap<string, string>,
  ): Promise<ToolCallsOutcome> {
    const results: ToolResultPart[] = [];
    this.run.append({ role: "tool", content: results });
    const iteration = this.run.iteration;
    return this.stepDone(
      await this.batches.execute({ calls, results, start: 0, iteration, closed: false, repeats }),
    );
  }

  /**
   * Answers a call its driver refuses before it reaches a tool (a dispatcher call whose arguments name
   * none, with `problem` saying why) with an error result, recorded as every call's result is.
   */
  refuseToolCall(call: ModelToolCall, problem: string): ToolCallsOutcome {
    throwIfAborted(this.signal); // as for a call run: a cancelled run answers no more calls
    const results = [this.executor.refuse(call, this.run.iteration, problem)];
    this.run.append({ role: "tool", content: results });
    return this.stepDone({ next: { type: "continue" }, results });
  }

  /**
   * Where a resumed run starts: the calls its messages left waiting are answered first (approved
   * ones run, once; denied ones get an error result with the reason; undecided ones pause the run
   * again, or in a continued conversation are not run), then the model is told about providers that
   * could not be restored, then a continued conversation's new messages follow. A fresh run: continue.
   */
  async resumeStart(): Promise<StepOutcome> {
    const undecided = this.init.followUp
      ? "the conversation went on without a decision on this call (a new message came instead)"
      : undefined;
    const waiting = this.run.pending;
    const next: StepOutcome =
      waiting.length > 0 ? await this.batches.resume(waiting, undecided) : { type: "continue" };
    if (next.type !== "continue") return next;
    if (this.init.notices && this.init.notices.length > 0)
      this.run.append({ role: "user", content: this.init.notices.map((n) => `[${n}]`).join("\n") });
    this.run.append(...(this.init.followUp ?? []));
    return next;
  }

  /**
   * Judges a final answer: usable (the run ends with it) or sent back with what was wrong (the run goes on).
   *
   * @throws OutputValidationError when no repair is left
   */
  handleFinalAnswer(text: string): StepOutcome {
    const verdict = this.answers.judge(text, this.run.iteration);
    if (verdict.ok) return this.stepDone({ type: "final", answer: verdict.value });
    this.run.append({ role: "user", content: verdict.repair });
    return this.stepDone({ type: "continue", reply: verdict.repair });
  }

  /** `outcome`, once the step is reported handled (`onStepFinish`): one place for every driver. */
  private stepDone<T>(outcome: T): T {
    this.init.onStepFinish?.(this.run.iteration);
    return outcome;
  }

  /** How the attempt ended, once a step said so: its watch stopped and its executor closed. */
  end(outcome: RunEnd): RunEnd {
    this.stopWatching();
    this.executor.close();
    this.callSignal.release();
    return outcome;
  }

  /**
   * Ends the run with an error: the open calls get their results, then the run attaches itself to the
   * error once: the conversation, the iterations of the whole run and a snapshot (see `Run.fail`).
   */
  fail(error: unknown): ToolLoopError {
    this.stopWatching();
    this.executor.close(); // before `ended` fires: a call still running is stopped by it all the same
    this.batches.closeOpen("the run ended before this call ran");
    const failure = this.run.fail(error, this.signal);
    this.ended.abort(failure);
    this.callSignal.release();
    return failure;
  }

  private stopWatching(): void {
    this.watch.stop();
  }
}

/** A response's event as `responded` builds it: its optional fields set after the others. */
type ModelRespondedInit = {
  -readonly [K in keyof Omit<ModelRespondedEvent, "runId">]: ModelRespondedEvent[K];
};
