import type * as Api from "@opentelemetry/api";
import type { Attributes, Span, Tracer } from "@opentelemetry/api";
import type { RunScope } from "../events/run-events.js";
import { toolFailureSummary } from "../events/tool-failure-summary.js";
import type { ToolLoopEvent } from "../events/tool-loop-event.js";
import type { TokenUsage } from "../events/token-usage.js";
import { providerKeyOf, type ProviderIdentity } from "../tools/provider-identity.js";

/** What of `@opentelemetry/api` the recorder uses. */
export type OtelApi = Pick<typeof Api, "SpanKind" | "SpanStatusCode" | "context" | "trace">;

/** The open spans of one run. */
interface RunSpans {
  readonly run: Span;
  step?: Span;
  readonly tools: Map<string, Span>;
  /** The tool call running now (strategies run inside it), where its tool-set changes are recorded. */
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
 * (streamed, resumed, Codex) gives one shape.
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
    const span = target.kind === "step" ? spans?.step : spans?.tools.get(target.toolCallId);
    if (!span) return work();
    return this.api.context.with(this.api.trace.setSpan(this.api.context.active(), span), work);
  };

  private record(spans: RunSpans, event: ToolLoopEvent): void {
    switch (event.type) {
      case "ToolLoopIteration":
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
          this.api.trace.setSpan(this.api.context.active(), spans.run),
        );
        break;
      case "ModelResponded": {
        const step = spans.step;
        if (!step) break;
        if (event.modelId !== undefined) {
          step.updateName(`chat ${event.modelId}`); // the GenAI conventions name a span by the request's model
          step.setAttributes({
            "gen_ai.request.model": event.modelId,
            "gen_ai.response.model": event.responseModelId ?? event.modelId,
          });
        }
        step.setAttributes({
          ...usageAttributes(event.usage),
          "entity_tools.model.duration_ms": event.durationMs,
          "entity_tools.tool_calls": event.toolCalls.length,
          ...(this.recordContent ? { "entity_tools.response.text": event.text } : {}),
        });
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
          this.api.trace.setSpan(this.api.context.active(), spans.run),
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
            this.api.trace.setSpan(this.api.context.active(), spans.run),
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
          this.changed(spans).addEvent("tools.renamed", {
            "entity_tools.tools": event.renamedTools.map((r) => r.name),
            "entity_tools.tools.requested": event.renamedTools.map((r) => r.requested),
            ...providerAttributes([provider]),
          });
        break;
      }
      case "ToolsInjected":
        this.changed(spans).addEvent("tools.injected", {
          "entity_tools.tools": [...event.toolNames],
          "entity_tools.cause": event.triggeredBy,
          ...providerAttributes(spans.discovered),
        });
        spans.discovered = [];
        break;
      case "ToolsRemoved":
        this.changed(spans).addEvent("tools.removed", {
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
    if (event.type === "ModelResponded") {
      spans.step?.end();
      spans.step = undefined;
    }
  }

  /** The span a tool-set change belongs to: the running tool call's, else the run's. */
  private changed(spans: RunSpans): Span {
    return spans.current ?? spans.run;
  }

  private endingTool(spans: RunSpans, toolCallId: string): Span | undefined {
    const tool = spans.tools.get(toolCallId);
    spans.tools.delete(toolCallId);
    if (spans.current === tool) spans.current = undefined;
    return tool;
  }

  private finish(spans: RunSpans, event: Extract<ToolLoopEvent, { type: "RunFinished" }>): void {
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

function usageAttributes(usage: TokenUsage): Attributes {
  return {
    "gen_ai.usage.input_tokens": usage.inputTokens,
    "gen_ai.usage.output_tokens": usage.outputTokens,
    "gen_ai.usage.cache_read.input_tokens": usage.cachedInputTokens,
    "gen_ai.usage.reasoning.output_tokens": usage.reasoningTokens,
  };
}

/**
 * Providers as three parallel array attributes (span attributes hold no objects): class, id as text, and
 * the id's type, which tells `1` from `"1"`.
 */
function providerAttributes(providers: readonly ProviderIdentity[]): Attributes {
  if (providers.length === 0) return {};
  return {
    "entity_tools.provider.class": providers.map((p) => p.providerClass),
    "entity_tools.provider.id": providers.map((p) => String(p.id)),
    "entity_tools.provider.id_type": providers.map((p) => p.idType),
  };
}

/** Each provider once, by its key. */
function distinct(providers: readonly ProviderIdentity[]): ProviderIdentity[] {
  return [...new Map(providers.map((p) => [providerKeyOf(p), p])).values()];
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
