import type * as Api from "@opentelemetry/api";
import type { Span, Tracer } from "@opentelemetry/api";
import type { RunScope } from "../events/run-events.js";
import { toolFailureSummary } from "../events/tool-failure-summary.js";
import type { ModelRespondedEvent, ToolLoopEvent } from "../events/tool-loop-event.js";
import { addUsage } from "../events/token-usage.js";
import { joinedStepText } from "../events/step-responses.js";
import type { ProviderIdentity } from "../tools/provider-identity.js";
import { isOtherModel, otherModelSpan, setResponse, type Answered } from "./chat-span.js";
import { distinct, json, providerAttributes, usageAttributes } from "./span-attributes.js";

/** What of `@opentelemetry/api` the recorder uses. */
export type OtelApi = Pick<typeof Api, "SpanKind" | "SpanStatusCode" | "context" | "trace">;

/** The open spans of one run. */
interface RunSpans {
  readonly run: Span;
  step?: Span;
  /** True once the step's model call ran in the step's scope: a step backend's call, not a conversation's. */
  stepScoped: boolean;
  /**
   * A conversation step's span once its response came: kept (its end time already taken) until the next
   * step or the run's end, since the turn a stop ended reports its tokens in a second `ModelResponded`.
   */
  answered?: Answered;
  /** The model a step's responses named first: a later one of another model has a span of its own. */
  named?: { readonly iteration: number; readonly modelId: string };
  readonly tools: Map<string, Span>;
  /** The tool call started last: where a tool-set change that names no call is recorded. */
  current?: Span;
  /** Providers discovered since the last `ToolsInjected` (it follows them). */
  discovered: ProviderIdentity[];
  /** Which provider each discovered tool name belongs to, for `tools.removed`. */
  readonly owners: Map<string, ProviderIdentity>;
}

/**
 * Turns a run's events into OpenTelemetry spans, with the GenAI semantic conventions: `entity_tools.run`
 * (`invoke_agent`) with, under it, one `chat {model}` span per model call and one `execute_tool {name}`
 * span per tool call (siblings, as the conventions have them; `entity_tools.step` says which step asked),
 * and the tool-set changes as span events (`tools.injected`, `tools.removed`, `tools.renamed`,
 * `tools.restart`) on the span of the tool call that caused them (the run's span for changes between
 * steps: a tool source's update, a restart: one `tools.restart` each, from `RunRestarted`, with its cause).
 * Errors are recorded as exceptions named by their error class. Built from events only, so every backend
 * (streamed, resumed, Codex) gives one shape. A step's span ends at its response. A conversation backend's
 * step (its model call never runs in our scope) gets that end time too, but is ended only at the next step
 * or the run's end, so the second `ModelResponded` of a turn a stop ended puts the turn's tokens on it.
 */
export class SpanRecorder {
  private readonly runs = new Map<string, RunSpans>();

  constructor(
    private readonly api: OtelApi,
    private readonly tracer: Tracer,
    private readonly recordContent: boolean,
  ) {}

  readonly observe = (event: ToolLoopEvent): void => {
    if (event.type === "RunStarted") {
      this.runs.set(event.runId, {
        run: this.tracer.startSpan(
          "entity_tools.run",
          {
            kind: this.api.SpanKind.INTERNAL,
            attributes: {
              "gen_ai.operation.name": "invoke_agent",
              "entity_tools.run.id": event.runId,
              "entity_tools.run.resumed": event.resumed,
            },
          },
          this.api.context.active(),
        ),
        stepScoped: false,
        tools: new Map(),
        discovered: [],
        owners: new Map(),
      });
      return;
    }
    const spans = this.runs.get(event.runId);
    if (spans) this.record(spans, event);
  };

  /**
   * Runs a step's model call or a tool call with its span active, so spans opened inside (the AI SDK's
   * own with `experimental_telemetry`, a database client's in a tool) are its children.
   */
  readonly scope: RunScope = (runId, target, work) => {
    const spans = this.runs.get(runId);
    if (spans && target.kind === "step") spans.stepScoped = true;
    const span = target.kind === "step" ? spans?.step : spans?.tools.get(target.toolCallId);
    if (!span) return work();
    return this.api.context.with(this.api.trace.setSpan(this.api.context.active(), span), work);
  };

  private record(spans: RunSpans, event: ToolLoopEvent): void {
    switch (event.type) {
      case "ToolLoopIteration":
        this.endAnswered(spans);
        spans.stepScoped = false;
        spans.step = this.tracer.startSpan(
          "chat",
          {
            kind: this.api.SpanKind.CLIENT,
            attributes: {
              "gen_ai.operation.name": "chat",
              "entity_tools.step": event.iteration,
              "entity_tools.tools.offered": event.toolNames.length,
            },
          },
          this.under(spans),
        );
        break;
      case "ModelResponded": {
        if (isOtherModel(spans.named, event))
          return otherModelSpan(this.tracer, this.api, this.under(spans), event, this.recordContent);
        if (event.modelId !== undefined && spans.named?.iteration !== event.iteration)
          spans.named = { iteration: event.iteration, modelId: event.modelId };
        const answered = spans.answered;
        if (answered?.iteration === event.iteration) this.turnEnded(spans, answered, event);
        else if (spans.step) {
          setResponse(spans.step, event, this.recordContent);
          spans.step.setAttributes({
            "entity_tools.model.duration_ms": event.durationMs,
            "entity_tools.tool_calls": event.toolCalls.length,
          });
        }
        break;
      }
      case "ModelWarning":
        (spans.step ?? spans.run).addEvent("model.warning", { "entity_tools.message": event.message });
        break;
      case "ToolCallStarted": {
        const tool = this.tracer.startSpan(
          `execute_tool ${event.toolName}`,
          {
            kind: this.api.SpanKind.INTERNAL,
            attributes: {
              "gen_ai.operation.name": "execute_tool",
              "gen_ai.tool.name": event.toolName,
              "gen_ai.tool.call.id": event.toolCallId,
              "entity_tools.step": event.iteration,
              ...(this.recordContent ? { "gen_ai.tool.call.arguments": json(event.input) } : {}),
            },
          },
          this.under(spans),
        );
        spans.tools.set(event.toolCallId, tool);
        spans.current = tool;
        break;
      }
      case "ToolInvoked": {
        const tool = this.endingTool(spans, event.toolCallId);
        if (!tool) break;
        if (this.recordContent) tool.setAttribute("gen_ai.tool.call.result", event.resultText);
        tool.end();
        break;
      }
      case "ToolFailed": {
        // A call that never ran (denied, cancelled, a repeated id) has no span yet: it gets a short one.
        const tool =
          this.endingTool(spans, event.toolCallId) ??
          this.tracer.startSpan(
            `execute_tool ${event.toolName}`,
            {
              attributes: {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": event.toolName,
                "gen_ai.tool.call.id": event.toolCallId,
                "entity_tools.step": event.iteration,
              },
            },
            this.under(spans),
          );
        tool.setAttribute("error.type", event.reason);
        if (this.recordContent) tool.setAttribute("gen_ai.tool.call.result", event.message);
        tool.setStatus({
          code: this.api.SpanStatusCode.ERROR,
          message: this.recordContent ? event.message : toolFailureSummary(event),
        });
        tool.end();
        break;
      }
      case "ToolProviderDiscovered": {
        const provider = event.identity;
        spans.discovered.push(provider);
        for (const name of event.exposedTools) spans.owners.set(name, provider);
        if (event.renamedTools.length > 0)
          this.changed(spans, event.toolCallId).addEvent("tools.renamed", {
            "entity_tools.tools": event.renamedTools.map((r) => r.name),
            "entity_tools.tools.requested": event.renamedTools.map((r) => r.requested),
            ...providerAttributes([provider]),
          });
        break;
      }
      case "ToolsInjected":
        this.changed(spans, event.toolCallId).addEvent("tools.injected", {
          "entity_tools.tools": [...event.toolNames],
          "entity_tools.cause": event.triggeredBy,
          ...providerAttributes(spans.discovered),
        });
        spans.discovered = [];
        break;
      case "ToolsRemoved":
        this.changed(spans, event.toolCallId).addEvent("tools.removed", {
          "entity_tools.tools": [...event.toolNames],
          // The budget's removals are evictions: the model gets them back by calling their source again.
          "entity_tools.cause": event.reason === "budget" ? "evicted" : event.reason,
          ...providerAttributes(distinct(event.toolNames.flatMap((n) => spans.owners.get(n) ?? []))),
        });
        break;
      case "RunRestarted":
        // One per restart, whatever asked for it; the sections an expansion expands on it, not one each.
        spans.run.addEvent("tools.restart", {
          "entity_tools.cause": event.cause,
          ...(event.toolNames ? { "entity_tools.tools": [...event.toolNames] } : {}),
          ...(event.sections
            ? { "entity_tools.section": event.sections[0], "entity_tools.sections": [...event.sections] }
            : {}),
        });
        break;
      case "OutputRejected":
        spans.run.addEvent("output.rejected", { "entity_tools.problems": [...event.problems] });
        break;
      case "RunFinished":
        this.finish(spans, event);
        this.runs.delete(event.runId);
        break;
      default:
        break;
    }
    if (event.type === "ModelResponded" && spans.step) {
      if (spans.stepScoped) spans.step.end();
      else {
        const { iteration, usage, text } = event;
        spans.answered = { span: spans.step, iteration, endTime: performance.now(), usage, text };
      }
      spans.step = undefined;
    }
  }

  /**
   * A turn a stop ended: its tokens (and model, and text) join what its last step's response reported, on
   * that step's span, which then ends when that response came.
   */
  private turnEnded(spans: RunSpans, answered: Answered, event: ModelRespondedEvent): void {
    const text = joinedStepText(answered.text, event.text);
    const usage = addUsage(answered.usage, event.usage);
    setResponse(answered.span, { ...event, usage, text }, this.recordContent);
    this.endAnswered(spans);
  }

  /** The context of a span opened as a child of the run's. */
  private under(spans: RunSpans): Api.Context {
    return this.api.trace.setSpan(this.api.context.active(), spans.run);
  }

  private endAnswered(spans: RunSpans): void {
    spans.answered?.span.end(spans.answered.endTime);
    spans.answered = undefined;
  }

  /** A tool-set change's span: its call's (calls may run at once), else the running call's, else the run's. */
  private changed(spans: RunSpans, toolCallId: string | undefined): Span {
    return (toolCallId === undefined ? undefined : spans.tools.get(toolCallId)) ?? spans.current ?? spans.run;
  }

  private endingTool(spans: RunSpans, toolCallId: string): Span | undefined {
    const tool = spans.tools.get(toolCallId);
    spans.tools.delete(toolCallId);
    if (spans.current === tool) spans.current = undefined;
    return tool;
  }

  private finish(spans: RunSpans, event: Extract<ToolLoopEvent, { type: "RunFinished" }>): void {
    this.endAnswered(spans); // its call was answered: the run's failure is not its
    const error = event.error;
    for (const open of [spans.step, ...spans.tools.values()]) {
      if (!open) continue;
      if (error) this.fail(open, error);
      open.end();
    }
    spans.run.setAttributes({
      ...usageAttributes(event.usage),
      "entity_tools.run.status": event.status,
      "entity_tools.run.iterations": event.totalIterations,
    });
    if (error) this.fail(spans.run, error);
    spans.run.end();
  }

  /** Records `error` as the span's exception, named by its class (`ToolLoopError`, `ApprovalRequiredError`…). */
  private fail(span: Span, error: Error): void {
    span.recordException({ name: error.name, message: error.message, stack: error.stack });
    span.setAttribute("error.type", error.name);
    span.setStatus({ code: this.api.SpanStatusCode.ERROR, message: error.message });
  }
}
