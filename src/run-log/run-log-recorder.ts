// The run log's observer: turns a run's events into the records of its file (run-log-format.ts), as
// telemetry turns them into spans. Every record names the step it happened in; without `recordContent`
// no input, result, text, prompt or reason is written.
import { responseCost, type Pricing } from "../events/pricing.js";
import type { ToolLoopEvent } from "../events/tool-loop-event.js";
import { describeCause } from "../tools/describe-thrown.js";
import { plainIdentity } from "../tools/provider-binding.js";
import { DEFAULT_MAX_RESULT_CHARS } from "../tools/serialize-result.js";
import { isMediaPart } from "../tools/tool-content.js";
import type { RunLogFile } from "./run-log-file.js";
import {
  approvalAskedLine,
  callLine,
  responseLine,
  sameList,
  stepLine,
  toolSetChange,
} from "./run-log-lines.js";
import { callIdOf, endsCall, sessionEnd } from "./mcp-call-events.js";
import { withCutValues } from "./cut-value.js";
import { addedCost, runEnd, type OwnCost } from "./run-end.js";
import {
  TOOL_SET_CHECKPOINT,
  type EndRecord,
  type RunHeaderRecord,
  type RunLogRecord,
  type StepRecord,
} from "./run-log-format.js";

/** What a {@link RunLogRecorder} writes besides the events. */
export interface RunLogRecorderOptions {
  readonly header: RunHeaderRecord;
  readonly pricing?: Pricing;
  /** The longest value (an input, a result, a prompt, a text) a record holds whole (`maxValueChars`). */
  readonly maxValueChars: number;
  /**
   * An MCP server's: the tools it lists, read at each call. Each call is a step of its own, opened by the
   * call's first event (its start, its approval asked or decided, or its refusal) and closed by its last.
   */
  readonly offered?: () => readonly string[];
}

/** Writes one run's events to its file. */
export class RunLogRecorder {
  private step = 0;
  /** An MCP server's call whose step is open. */
  private call: string | undefined;
  private begun = false;
  private offered: readonly string[] | undefined;
  private readonly began = performance.now();
  private end: EndRecord | undefined;
  /** This file's responses' cost (with pricing). */
  private cost: OwnCost | undefined;
  /** Approvals asked and not decided yet: an MCP session that closes with one waits for a person. */
  private readonly asked = new Set<string>();
  private readonly content: boolean;

  constructor(
    private readonly file: RunLogFile,
    private readonly options: RunLogRecorderOptions,
  ) {
    this.content = options.header.recordContent;
  }

  /** The run's file. */
  get path(): string {
    return this.file.path;
  }

  /** The run's id (its file's name without `.jsonl`), which its snapshots name. */
  get id(): string {
    return this.options.header.id;
  }

  /** The observer: one event in, its record out (written at the next step, or at the end). */
  readonly observe = (event: ToolLoopEvent): void => {
    if (!this.begun) {
      // Written with the first step's record (one write, not two), or at the end of a run without one.
      this.begun = true;
      this.add(this.options.header);
    }
    if (this.options.offered) this.enterCall(event);
    switch (event.type) {
      case "ToolLoopIteration": {
        const now = performance.now(); // one clock read for the step's record and its write
        this.stepRecord(event.iteration, event.toolNames, now);
        this.file.flushStep(now);
        break;
      }
      case "ModelResponded": {
        const { usage, modelId, responseModelId } = event;
        const pricing = this.options.pricing;
        const cost = pricing && (responseCost(pricing, event) ?? "unknown");
        if (cost !== undefined) this.cost = addedCost(this.cost, cost);
        this.line(
          responseLine({
            step: this.step,
            ms: this.ms(),
            durationMs: event.durationMs,
            modelId,
            responseModelId,
            usage,
            cost,
            text: this.content ? event.text : undefined,
            // By name: each call's own record (or its approval's) holds its input, written once.
            calls: event.toolCalls,
            maxChars: this.options.maxValueChars,
          }),
        );
        break;
      }
      case "ToolInvoked":
      case "ToolFailed":
        this.callRecord(event);
        break;
      case "ToolProviderDiscovered": {
        let tokens = 0;
        for (const name of event.exposedTools) tokens += event.definitionTokens[name] ?? 0;
        this.add({
          type: "discovered",
          step: this.step,
          provider: event.identity,
          ...(event.toolCallId === undefined ? {} : { by: event.toolCallId }),
          tools: event.exposedTools,
          ...(event.methods === undefined ? {} : { methods: event.methods }),
          ...(event.handle === undefined ? {} : { handle: event.handle }),
          ...(event.replacedEarlierInstance ? { replaced: true } : {}),
          definitionTokens: tokens,
          ...(event.delivery === "deferred" ? { delivery: "deferred" } : {}),
        });
        break;
      }
      case "ToolsInjected":
        this.add({
          type: "added",
          step: this.step,
          tools: event.toolNames,
          byTool: event.triggeredBy,
          ...(event.toolCallId === undefined ? {} : { by: event.toolCallId }),
        });
        break;
      case "ToolsRemoved":
        this.add({
          type: "removed",
          step: this.step,
          tools: event.toolNames,
          reason: event.reason,
          ...(event.toolCallId === undefined ? {} : { by: event.toolCallId }),
          ...(this.content && event.cause !== undefined
            ? { cause: describeCause(event.cause, DEFAULT_MAX_RESULT_CHARS) }
            : {}),
        });
        break;
      case "RunRestarted": // the restart's one event (its new thread's details are not records)
        this.add({
          type: "restart",
          step: this.step,
          cause: event.cause,
          // A strategy's reason is its author's words; the others are ours (sections, tools, the backend).
          reason: this.content || event.cause !== "strategy" ? event.reason : "restart",
          ...(event.sections ? { sections: event.sections } : {}),
          ...(event.toolNames ? { tools: event.toolNames } : {}),
        });
        break;
      case "VisibilityExpanded":
        this.add({
          type: "expanded",
          step: this.step,
          section: event.sectionKey,
          mode: event.mode,
          tools: event.unlockedTools,
        });
        break;
      case "ApprovalRequested":
        this.asked.add(event.approvalId);
        this.line(approvalAskedLine(event, this.step, this.content, this.options.maxValueChars));
        break;
      case "ApprovalDecided":
        this.asked.delete(event.approvalId);
        this.add({
          type: "approval-decided",
          step: this.step,
          id: event.approvalId,
          tool: event.toolName,
          approved: event.approved,
          ...(this.content && event.reason !== undefined ? { reason: event.reason } : {}),
        });
        break;
      case "ModelWarning":
        this.note("model-warning", event.message);
        break;
      case "SourceToolSkipped":
        this.note("source", `${event.source}: ${event.toolName} is not offered: ${event.reason}`);
        break;
      case "SourceToolChanged":
        this.note("source", `${event.source} changed ${event.toolNames.join(", ")}`);
        break;
      case "OutputRejected":
        this.note("output-rejected", this.content ? event.problems.join("; ") : undefined);
        break;
      case "RunFinished":
        // The whole run's providers; `end` has this file's own tokens and cost (see run-end.ts).
        if (event.cost) this.add({ type: "costs", step: this.step, perProvider: event.cost.perProvider });
        this.end = runEnd(event, { steps: this.step, ms: this.ms(), content: this.content, cost: this.cost });
        this.file.flush();
        break;
      default:
        break;
    }
    if (this.options.offered && this.call !== undefined && endsCall(event)) {
      this.call = undefined;
      this.file.flush();
    }
  };

  /**
   * An MCP server's call: its first event opens a step with the tools listed then (calls are taken one
   * at a time; the viewer reads records in order).
   */
  private enterCall(event: ToolLoopEvent): void {
    const id = callIdOf(event);
    if (id === undefined || id === this.call) return;
    this.call = id;
    this.stepRecord(this.step + 1, this.options.offered!());
  }

  /** An MCP session closed: its file ends (`sessionEnd`); a server that served no call wrote nothing. */
  endSession(): void {
    if (!this.begun || this.end) return;
    this.end = sessionEnd(this.step, this.ms(), this.asked.size > 0);
    this.finish();
  }

  /** Ends the file: the run's end, written and closed. */
  finish(): void {
    if (this.end) this.add(this.end);
    this.file.close();
  }

  private add(record: RunLogRecord): void {
    this.file.add(withCutValues(record, this.options.maxValueChars), this.step);
  }

  private line(text: string): void {
    this.file.addLine(text, this.step);
  }

  private note(kind: "model-warning" | "source" | "output-rejected", message: string | undefined): void {
    this.add({ type: "note", step: this.step, kind, ...(message === undefined ? {} : { message }) });
  }

  private ms(now: number = performance.now()): number {
    return Math.round(now - this.began);
  }

  /** A call's record: its input, result and media with recorded content; the provider its handle names. */
  private callRecord(event: Extract<ToolLoopEvent, { type: "ToolInvoked" | "ToolFailed" }>): void {
    const ok = event.type === "ToolInvoked";
    const media = ok ? event.parts?.filter(isMediaPart) : undefined;
    this.line(
      callLine({
        step: this.step,
        ms: this.ms(),
        id: event.toolCallId,
        tool: event.toolName,
        ok,
        durationMs: ok ? event.durationMs : undefined,
        reason: ok ? undefined : event.reason,
        content: this.content,
        input: event.input,
        result: ok ? event.resultText : event.message,
        cause: ok ? undefined : event.cause,
        media: media?.map((part) =>
          this.content
            ? this.file.media(part)
            : { type: part.type, mediaType: part.mediaType, skipped: "content is not recorded" },
        ),
        provider: event.provider && plainIdentity(event.provider),
        maxChars: this.options.maxValueChars,
      }),
    );
  }

  /**
   * Writes a step's record: the whole tool set at step 1 and at each checkpoint, else what changed against
   * the step before (nothing, most steps: the lists are compared in order first, which is all it takes then).
   */
  private stepRecord(iteration: number, names: readonly string[], clock?: number): void {
    const step = ++this.step;
    const previous = this.offered;
    this.offered = names;
    const ms = this.ms(clock);
    if (previous !== undefined && (step - 1) % TOOL_SET_CHECKPOINT !== 0 && sameList(previous, names))
      return this.line(stepLine(step, iteration, ms, names.length));
    const base = { type: "step", step, iteration, ms, count: names.length } as const;
    if (previous === undefined || (step - 1) % TOOL_SET_CHECKPOINT === 0)
      return this.add({ ...base, tools: names });
    this.add({ ...base, ...toolSetChange(previous, names) } satisfies StepRecord);
  }
}
