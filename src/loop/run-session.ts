import type { ModelMessage, ToolResultPart } from "ai";
import type { RunEvents } from "../events/run-events.js";
import { addUsage, emptyUsage } from "../events/token-usage.js";
import type { RunEventInit } from "../events/tool-loop-event.js";
import type { JsonSchema } from "../schema/json-schema.js";
import type { ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import type { AnyTool } from "../tools/tool.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import {
  MaxIterationsExceededError,
  ToolLoopAbortedError,
  ToolLoopError,
  withConversation,
} from "./errors.js";
import { ApprovalGate } from "./approval-gate.js";
import { ToolCallExecutor } from "./execution/tool-call-executor.js";
import type { ToolMiddleware } from "./execution/tool-middleware.js";
import { FinalAnswerCheck } from "./final-answer-check.js";
import type { ModelStepResult, ModelToolCall, TokenUsage } from "./model-port.js";
import type { RunSettings } from "./run-settings.js";
import type { PausedCalls, RunEnd, StepOutcome, ToolCallsOutcome } from "./step-outcome.js";
import type { DynamicToolSource } from "./tool-source-port.js";
import { listSource } from "./list-source.js";
import type { ToolResultMediaTypes } from "./media-types.js";
import { markRunHistory } from "./run-history.js";
import { outputInstruction } from "./structured-output.js";
import { untilAborted } from "./until-aborted.js";

/** Everything one run starts from. */
export interface RunSessionInit {
  readonly messages: readonly ModelMessage[];
  readonly system?: string;
  readonly tools: readonly AnyTool[];
  readonly strategies: readonly ToolInjectionStrategy[];
  readonly middleware: readonly ToolMiddleware[];
  readonly settings: RunSettings;
  readonly outputSchema?: JsonSchema;
  readonly signal?: AbortSignal;
  readonly events: RunEvents;
  /** Sources whose tools (already among `tools`) are re-listed between steps when they change. */
  readonly sources?: readonly SourceWithTools[];
  /** Which calls need a person's approval, and the decisions given on resume. */
  readonly approvals?: ApprovalGate;
  /** On resume: the calls the snapshot's last message left waiting. */
  readonly paused?: PausedCalls;
  /** On resume: the discovered tools re-bound to their providers (added without events). */
  readonly restored?: readonly AnyTool[];
  /** On resume: what the model must be told (providers that could not be restored). */
  readonly notices?: readonly string[];
  /** On resume: tools of the snapshot that could not be restored, by name, with their provider's label. */
  readonly lost?: ReadonlyMap<string, string>;
  /**
   * A continued conversation (`continueFrom`): the new messages, appended once the snapshot's waiting
   * calls are answered (those still undecided are not run: the conversation went on without a decision).
   */
  readonly followUp?: readonly ModelMessage[];
  /** The media the backend's model takes in a tool result (the adapter's `toolResultMediaTypes`). */
  readonly toolResultMediaTypes?: ToolResultMediaTypes;
}

/** A dynamic source and the tools it had when the run started. */
export interface SourceWithTools {
  readonly source: DynamicToolSource;
  readonly tools: readonly AnyTool[];
}

const CANCELLED_TEXT = "The run was cancelled before this tool finished";
const EMPTY_TURN: ModelMessage = { role: "assistant", content: "(empty response)" };

/** The calls of one model response whose results are still being written. */
interface OpenCalls {
  /** The calls still to answer (on resume, those that waited). */
  readonly calls: readonly ModelToolCall[];
  /** The content of the response's `role: "tool"` message, already in the history. */
  readonly results: ToolResultPart[];
  /** How many results the message had before these calls (earlier calls of a paused message). */
  readonly start: number;
  readonly iteration: number;
  closed: boolean;
  /** Why a call that still needs a decision is not run instead of pausing the run (a continued conversation). */
  readonly undecided?: string;
}

/**
 * The state and rules of one run, shared by every backend's driver: the history, the tool registry and
 * budget, the iteration cap, the final-answer check, the unknown-tool limit, cancellation, token usage and
 * error wrapping. A driver only decides who calls whom: it begins an iteration, records what the model
 * said, and hands over tool calls or a final answer; each returns what happens next.
 *
 * An **iteration** is one model response the run handles: on a step backend, one model call; on a
 * conversation backend (Codex), each tool call it asks us to run and each final message, because each
 * stands for a response of its model and its own model calls are not visible to us.
 */
export class RunSession {
  readonly history: ModelMessage[];
  readonly registry: ToolRegistry;
  /** The configured system prompt plus, for structured output, the JSON instruction. */
  readonly system: string | undefined;
  /** The schema of the run's structured output, when it has one. */
  readonly outputSchema: JsonSchema | undefined;
  readonly signal: AbortSignal | undefined;
  private readonly executor: ToolCallExecutor;
  private readonly answers: FinalAnswerCheck;
  private tokens: TokenUsage = emptyUsage();
  private iterations = 0;
  private open: OpenCalls | undefined;
  private paused: PausedCalls | undefined;
  private readonly gate: ApprovalGate;
  /**
   * Each source's tools now (name → its definition, to tell a changed one), and whether it announced a
   * change since it was last listed.
   */
  private readonly sources: {
    source: DynamicToolSource;
    definitions: Map<string, string>;
    changed: boolean;
    stop: () => void;
  }[];

  constructor(private readonly init: RunSessionInit) {
    this.history = [...init.messages];
    markRunHistory(this.history);
    this.registry = new ToolRegistry(init.tools, {
      maxInjectedTools: init.settings.maxInjectedTools,
      maxInjectedTokens: init.settings.maxInjectedTokens,
    });
    this.signal = init.signal;
    this.outputSchema = init.outputSchema;
    this.system =
      [init.system, init.outputSchema && outputInstruction(init.outputSchema)].filter(Boolean).join("\n\n") ||
      undefined;
    this.executor = new ToolCallExecutor({
      registry: this.registry,
      events: init.events,
      settings: init.settings,
      strategies: init.strategies,
      middleware: init.middleware,
      signal: init.signal,
      lost: init.lost,
      mediaTypes: init.toolResultMediaTypes,
    });
    this.answers = new FinalAnswerCheck(init.outputSchema, init.settings.maxOutputRepairs, init.events);
    this.gate = init.approvals ?? new ApprovalGate(undefined);
    if (init.restored && init.restored.length > 0) this.registry.add(init.restored);
    this.sources = (init.sources ?? []).map(({ source, tools }) => {
      const definitions = new Map(tools.map((t) => [t.name, definitionOf(t)]));
      const entry = { source, definitions, changed: false, stop: () => {} };
      entry.stop = source.watch(() => {
        entry.changed = true;
      });
      return entry;
    });
  }

  /**
   * Re-lists the sources that announced a change (or whose list expired) and applies the difference: new
   * tools injected (they count against the budget like discovered ones), vanished tools removed, a tool
   * listed again with another definition replaced and reported. A name already held by a local tool or
   * another source stays theirs: the newcomer is skipped and reported. Called by drivers between steps,
   * never during one.
   *
   * @throws ToolSourceError when a source cannot be listed
   */
  async refreshSources(): Promise<void> {
    for (const entry of this.sources) {
      if (!entry.changed && !entry.source.expired?.()) continue;
      entry.changed = false;
      const { source } = entry;
      const listing = await this.untilAborted(listSource(source, this.signal));
      const now = new Map(listing.tools.map((t) => [t.name, t]));
      const removed = this.registry.remove([...entry.definitions.keys()].filter((name) => !now.has(name)));
      if (removed.length > 0)
        this.init.events.emit({
          type: "ToolsRemoved",
          toolNames: removed.map((t) => t.name),
          reason: "source",
        });
      for (const name of removed.map((t) => t.name)) entry.definitions.delete(name);
      const skipped = [...listing.skipped];
      const fresh: AnyTool[] = [];
      const changed: AnyTool[] = [];
      for (const tool of listing.tools) {
        const held = entry.definitions.get(tool.name);
        if (held === undefined && this.registry.get(tool.name)) {
          skipped.push({ toolName: tool.name, reason: `the name is taken by ${this.ownerOf(tool.name)}` });
        } else if (held === undefined) fresh.push(tool);
        else if (held !== definitionOf(tool)) changed.push(tool);
      }
      for (const { toolName, reason } of skipped)
        this.init.events.emit({ type: "SourceToolSkipped", source: source.label, toolName, reason });
      if (changed.length > 0)
        this.init.events.emit({
          type: "SourceToolChanged",
          source: source.label,
          toolNames: changed.map((t) => t.name),
        });
      const held = this.executor.injectFromSource([...fresh, ...changed], source.label);
      for (const tool of [...fresh, ...changed])
        if (held.includes(tool.name)) entry.definitions.set(tool.name, definitionOf(tool));
    }
  }

  /** Who offers a tool name: a source's label, or the run's own tools. */
  private ownerOf(name: string): string {
    const owner = this.sources.find((entry) => entry.definitions.has(name));
    return owner ? owner.source.label : "a tool of the runner";
  }

  /** Iterations so far. */
  get iteration(): number {
    return this.iterations;
  }

  /** Tokens so far. */
  get usage(): TokenUsage {
    return { ...this.tokens };
  }

  /**
   * Starts an iteration: checks cancellation and the cap, and tells observers which tools are offered.
   *
   * @throws ToolLoopAbortedError, MaxIterationsExceededError
   */
  beginIteration(): readonly AnyTool[] {
    this.throwIfAborted();
    if (this.iterations >= this.init.settings.maxIterations)
      throw new MaxIterationsExceededError(this.init.settings.maxIterations);
    this.iterations++;
    const tools = this.registry.all();
    this.init.events.emit({
      type: "ToolLoopIteration",
      iteration: this.iterations,
      toolNames: this.registry.names(),
    });
    return tools;
  }

  /** `work` (this step's model call) inside the observers' scope for the step (see `RunEvents.within`). */
  inStep<T>(work: () => Promise<T>): Promise<T> {
    return this.init.events.within({ kind: "step" }, work);
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
   * how long the call took (`durationMs`) for observers.
   */
  recordResponse(
    response: Pick<
      ModelStepResult,
      "responseMessages" | "toolCalls" | "text" | "usage" | "modelId" | "warnings"
    >,
    durationMs = 0,
  ): void {
    this.history.push(...(response.responseMessages.length > 0 ? response.responseMessages : [EMPTY_TURN]));
    this.addUsage(response.usage);
    for (const message of response.warnings ?? [])
      this.init.events.emit({ type: "ModelWarning", iteration: this.iterations, message });
    this.init.events.emit({
      type: "ModelResponded",
      iteration: this.iterations,
      text: response.text,
      toolCalls: response.toolCalls.map((c) => ({ toolName: c.toolName, input: c.input })),
      usage: addUsage(emptyUsage(), response.usage),
      durationMs,
      ...(response.modelId === undefined ? {} : { modelId: response.modelId }),
    });
  }

  /** Tells observers what a driver saw happen (a backend's fallback), with the run's counters kept. */
  emit(event: RunEventInit): void {
    this.init.events.emit(event);
  }

  /** Appends a message that is not a model response (a driver's continuation prompt, a partial turn). */
  append(message: ModelMessage): void {
    this.history.push(message);
  }

  /** Adds tokens a backend reported apart from a response (a whole Codex turn). */
  addUsage(usage: Partial<TokenUsage> | undefined): void {
    this.tokens = addUsage(this.tokens, usage);
  }

  /**
   * Runs the calls of one model response in order and records every call with a result, whatever
   * happens: a call that repeats an earlier id, or that a cancellation or restart stops, gets an error
   * result too, so the history stays well-formed.
   *
   * @throws ToolNotFoundError after too many unknown tools in a row; the cancellation; a strategy's failure
   */
  async handleToolCalls(calls: readonly ModelToolCall[]): Promise<ToolCallsOutcome> {
    const results: ToolResultPart[] = [];
    this.history.push({ role: "tool", content: results });
    return this.runCalls({ calls, results, start: 0, iteration: this.iterations, closed: false });
  }

  /**
   * Where a resumed run starts: the calls its last message left waiting are answered first (approved
   * ones run, once; denied ones get an error result with the reason; undecided ones pause the run
   * again, or in a continued conversation are not run), then the model is told about providers that
   * could not be restored, then a continued conversation's new messages follow. A fresh run: continue.
   */
  async resumeStart(): Promise<StepOutcome> {
    const next = this.init.paused ? (await this.resumePaused()).next : ({ type: "continue" } as const);
    if (next.type !== "continue") return next;
    if (this.init.notices && this.init.notices.length > 0)
      this.history.push({ role: "user", content: this.init.notices.map((n) => `[${n}]`).join("\n") });
    this.history.push(...(this.init.followUp ?? []));
    return next;
  }

  private async resumePaused(): Promise<ToolCallsOutcome> {
    const paused = this.init.paused!;
    const last = this.history.at(-1);
    if (last?.role !== "tool")
      throw new ToolLoopError("The snapshot's paused calls do not follow their model message");
    const results = [...(last.content as ToolResultPart[])];
    this.history[this.history.length - 1] = { role: "tool", content: results };
    return this.runCalls({
      calls: paused.calls,
      results,
      start: results.length,
      iteration: paused.iteration,
      closed: false,
      undecided: this.init.followUp
        ? "the conversation went on without a decision on this call (a new message came instead)"
        : undefined,
    });
  }

  private async runCalls(open: OpenCalls): Promise<ToolCallsOutcome> {
    this.open = open;
    const seen = new Set<string>(open.results.map((r) => r.toolCallId));
    try {
      for (const [index, call] of open.calls.entries()) {
        this.throwIfAborted();
        if (seen.has(call.toolCallId)) {
          open.results.push(
            this.executor.notRun(
              call,
              open.iteration,
              "invalid-input",
              `Not run: another call in this message already has the id "${call.toolCallId}".`,
            ),
          );
          continue;
        }
        seen.add(call.toolCallId);
        const verdict = await this.gate.verdict(call, this.registry.get(call.toolName));
        if (verdict.kind === "deny") {
          const why = verdict.reason ? `: ${verdict.reason}` : "";
          open.results.push(
            this.executor.notRun(call, open.iteration, "denied", `Not run: a person denied this call${why}.`),
          );
          continue;
        }
        if (verdict.kind === "ask" && open.undecided) {
          open.results.push(
            this.executor.notRun(call, open.iteration, "not-run", `Not run: ${open.undecided}.`),
          );
          continue;
        }
        if (verdict.kind === "ask") {
          const waiting = open.calls.slice(index);
          this.paused = { iteration: open.iteration, calls: waiting };
          open.closed = true; // the waiting calls get their results on resume, not now
          this.open = undefined;
          const pending = await this.gate.pending(call, waiting.slice(1), (name) => this.registry.get(name));
          return { next: { type: "pause", pending }, results: open.results };
        }
        const { part, restart } = await this.executor.execute(call, open.iteration, this.history);
        if (open.closed) break; // the run ended while this call ran; its result came too late
        open.results.push(part);
        if (restart) {
          this.closeOpenCalls("the run restarts with an updated prompt");
          return { next: { type: "restart", request: restart }, results: open.results };
        }
      }
    } finally {
      this.closeOpenCalls("the run ended before this call ran");
    }
    const tooMany = this.executor.tooManyUnknownTools();
    if (tooMany) throw tooMany;
    return { next: { type: "continue" }, results: open.results };
  }

  /**
   * Judges a final answer: usable (the run ends with it) or sent back with what was wrong (the run goes on).
   *
   * @throws OutputValidationError when no repair is left
   */
  handleFinalAnswer(text: string): StepOutcome {
    const verdict = this.answers.judge(text, this.iterations);
    if (verdict.ok) return { type: "final", answer: verdict.value };
    this.history.push({ role: "user", content: verdict.repair });
    return { type: "continue", reply: verdict.repair };
  }

  /** How the run ended, once a step said so. */
  end(outcome: Exclude<StepOutcome, { type: "continue" }>): RunEnd {
    this.stopWatching();
    const record = {
      history: this.history,
      iterations: this.iterations,
      injectedTools: [...this.executor.injected],
      usage: this.usage,
    };
    switch (outcome.type) {
      case "final":
        return { ...record, type: "final", answer: outcome.answer };
      case "restart":
        return { ...record, type: "restart", request: outcome.request };
      case "pause":
        return { ...record, type: "pause", pending: outcome.pending, paused: this.paused! };
    }
  }

  /**
   * The error the run ends with: ours as it is, anything else wrapped (as a cancellation when the run's
   * signal fired), carrying the conversation with every call answered.
   */
  fail(error: unknown): ToolLoopError {
    this.stopWatching();
    this.closeOpenCalls("the run ended before this call ran");
    return withConversation(error, this.history, this.iterations, (cause) =>
      this.signal?.aborted
        ? new ToolLoopAbortedError(this.signal.reason ?? cause)
        : new ToolLoopError(`The run failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
            cause,
          }),
    );
  }

  private stopWatching(): void {
    for (const entry of this.sources) entry.stop();
  }

  private throwIfAborted(): void {
    if (this.signal?.aborted) throw new ToolLoopAbortedError(this.signal.reason);
  }

  /** Gives every call of the open response that has no result yet a "cancelled" or "not run" result. */
  private closeOpenCalls(why: string): void {
    const open = this.open;
    if (!open || open.closed) return;
    open.closed = true;
    this.open = undefined;
    const cancelled = this.signal?.aborted === true;
    for (const call of open.calls.slice(open.results.length - open.start)) {
      const part = cancelled
        ? this.executor.notRun(call, open.iteration, "cancelled", CANCELLED_TEXT)
        : this.executor.notRun(call, open.iteration, "not-run", `Not run: ${why}.`);
      open.results.push(part);
    }
  }
}

/** What a change of a tool's definition is judged by: what the model reads of it. */
function definitionOf(tool: AnyTool): string {
  return JSON.stringify([tool.description, tool.inputSchema]);
}
