import type { ModelMessage, ToolResultPart } from "ai";
import type { RunEvents } from "../../events/run-events.js";
import type { ToolFailureReason } from "../../events/tool-loop-event.js";
import type { RestartRequest, ToolInjectionStrategy } from "../../strategies/tool-injection-strategy.js";
import { callProvider } from "../../tools/provider-binding.js";
import { serializeToolResult } from "../../tools/serialize-result.js";
import type { AnyTool } from "../../tools/tool.js";
import type { ToolRegistry } from "../../tools/tool-registry.js";
import type { ToolNotFoundError } from "../errors/errors.js";
import type { ModelToolCall } from "../ports/model-port.js";
import type { RunSettings } from "../settings/run-settings.js";
import { serverFailureIn } from "../../errors/server-failure.js";
import { describeThrown } from "../../tools/describe-thrown.js";
import { ToolInjector } from "./inject-tools.js";
import { invokeTool, isToolTimeout, releaseRunSignal } from "./invoke-tool.js";
import type { ResolvedCall } from "./check-tool-input.js";
import { resolveToolCall } from "./resolve-tool-call.js";
import type { ToolMiddleware } from "./tool-middleware.js";
import { UnknownToolPolicy } from "./unknown-tool-policy.js";
import { toolFailedText } from "./tool-failed.js";
import type { ToolResultMediaTypes } from "../results/media-types.js";
import { partsOfOutput } from "../results/content-output.js";
import { appendToOutput, buildToolOutput, resultPart, type BuiltToolOutput } from "../results/tool-output.js";

/** What the executor needs for every call of one run. */
export interface ToolCallExecutorSetup {
  readonly registry: ToolRegistry;
  readonly events: RunEvents;
  readonly settings: RunSettings;
  readonly strategies: readonly ToolInjectionStrategy[];
  readonly middleware: readonly ToolMiddleware[];
  readonly signal?: AbortSignal;
  /** Tools of an earlier turn that are no longer bound, by name, with their provider's label. */
  readonly lost?: ReadonlyMap<string, string>;
  /** The media the backend's model takes in a tool result (see `ToolResultMediaTypes`); undefined: all. */
  readonly mediaTypes?: ToolResultMediaTypes;
  /** Told of the tools each addition injected, in order (a run records them: see `Run.recordAdded`). */
  readonly added: (tools: readonly AnyTool[]) => void;
}

/** One call's result part, and the restart a strategy asked for after it, if any. */
export interface ToolCallOutcome {
  readonly part: ToolResultPart;
  readonly restart?: RestartRequest;
  readonly held?: undefined;
}

/** A call the approval step held back: it has no result yet (the run pauses, the client is asked). */
export interface HeldCall {
  readonly held: ResolvedCall;
}

/**
 * The approval step of the pipeline, given a call whose input is valid: run it, refuse it (an error result
 * with `text`), or hold it (no result now; the driver asks a person).
 */
export type ApprovalStep = (resolved: ResolvedCall) => Promise<ApprovalAnswer>;

/** What {@link ApprovalStep} decided. */
export type ApprovalAnswer =
  | { readonly kind: "run" }
  | {
      readonly kind: "refuse";
      readonly reason: ToolFailureReason;
      readonly text: string;
      /** What the driver's own rule threw, for observers (see `ToolFailedEvent.cause`). */
      readonly cause?: unknown;
    }
  | { readonly kind: "hold" };

/**
 * The call pipeline: runs one tool call the way every driver (a run on any backend, the MCP server) needs
 * it run, in this order: resolve (name → tool, input checked and a handle verified) → approval (the
 * driver's step, which sees only valid calls) → invoke (middleware, time limit, cancellation; a handle
 * bound to its provider) → build the result (text, or media parts the backend's model takes, once for
 * every driver: `buildToolOutput`) → inject (strategies and the registry). Every failure becomes an error
 * result the model reads, which the strategies judge too when the tool exists (`LastToolCall.isError`);
 * only cancellation, a failing strategy or approval rule (`ApprovalRuleError`) throw. Each driver renders the result in its own
 * protocol (AI SDK content output, MCP blocks, Codex content items).
 */
export class ToolCallExecutor {
  readonly unknownTools: UnknownToolPolicy;
  private readonly injector: ToolInjector;

  constructor(private readonly setup: ToolCallExecutorSetup) {
    this.unknownTools = new UnknownToolPolicy(setup.settings.maxUnknownToolCalls, setup.lost);
    this.injector = new ToolInjector(
      setup.registry,
      setup.strategies,
      setup.events,
      setup.signal,
      setup.added,
    );
  }

  /** The run has ended: its signal's listener is released (see `releaseRunSignal`). */
  close(): void {
    releaseRunSignal(this.setup.signal);
  }

  /** Runs `call` through the pipeline; with `approve`, a valid call is run only when it says so. */
  async execute(
    call: ModelToolCall,
    iteration: number,
    history: readonly ModelMessage[],
    approve?: ApprovalStep,
  ): Promise<ToolCallOutcome | HeldCall> {
    const { registry, events, settings, signal } = this.setup;
    const resolution = resolveToolCall(call, registry, this.unknownTools);
    if (!resolution.ok) {
      this.started(call, iteration);
      // No tool has that name: there is nothing for a strategy to judge.
      if (resolution.reason === "unknown-tool")
        return { part: this.fail(call, iteration, resolution.reason, resolution.message) };
      return this.failed(call, iteration, history, call.input, resolution.reason, resolution.message);
    }
    const answer = approve ? await approve(resolution) : { kind: "run" as const };
    if (answer.kind === "hold") return { held: resolution };
    const { tool, input } = resolution;
    if (answer.kind === "refuse")
      return this.failed(call, iteration, history, input, answer.reason, answer.text, answer.cause);
    this.started(call, iteration);
    registry.markUsed(tool.name);
    const started = performance.now();
    let value: unknown;
    try {
      value = await events.within({ kind: "tool", toolCallId: call.toolCallId }, () =>
        invokeTool(tool, input, call.toolCallId, {
          middleware: this.setup.middleware,
          timeoutMs: settings.toolTimeoutMs,
          signal,
        }),
      );
    } catch (error) {
      if (isToolTimeout(error)) {
        const message = `Tool "${tool.name}" did not finish within ${error.ms} ms`;
        return this.failed(call, iteration, history, input, "timeout", message);
      }
      if (signal?.aborted) throw signal.reason ?? error;
      const message = toolFailedText(tool.name, describeThrown(error, settings.maxResultChars));
      // What the server's own code threw (not told: see ServerFailure) is for observers.
      return this.failed(call, iteration, history, input, "threw", message, serverFailureIn(error));
    }
    let built: BuiltToolOutput;
    try {
      built = buildToolOutput(tool.name, value, {
        maxChars: tool.wholeResult ? Infinity : settings.maxResultChars,
        maxMediaBytes: settings.maxResultMediaBytes,
        mediaTypes: this.setup.mediaTypes,
      });
    } catch (error) {
      const message = `The result of "${tool.name}" could not be read: ${describeThrown(error, settings.maxResultChars)}`;
      return this.failed(call, iteration, history, input, "unreadable-result", message);
    }
    for (const message of built.warnings) events.emit({ type: "ModelWarning", iteration, message });
    let { text, output } = built;
    const durationMs = performance.now() - started;
    const { notices, restart } = await this.injector.evaluate({
      toolName: tool.name,
      toolCallId: call.toolCallId,
      input,
      resultText: text,
      value,
      isError: false,
      iteration,
      history,
    });
    const notice = this.noticeText(notices);
    if (notice) {
      text = `${text}${notice}`;
      output = appendToOutput(output, notice);
    }
    // Reported once the strategies have run, so observers read exactly what the model reads, notices included.
    events.emit({
      type: "ToolInvoked",
      iteration,
      toolCallId: call.toolCallId,
      toolName: tool.name,
      input,
      resultText: text,
      ...(output.type === "content" ? { parts: partsOfOutput(output) } : {}),
      durationMs,
      ...callProvider(tool, input),
    });
    return { part: resultPart(call, output), restart };
  }

  /**
   * A call of a known tool that ends in an error result (its input refused, not approved, it threw, timed
   * out, or its result could not be read): the strategies judge it as they judge a result (`isError`,
   * no value), then observers are told, with the notices, as for a result.
   */
  private async failed(
    call: ModelToolCall,
    iteration: number,
    history: readonly ModelMessage[],
    input: unknown,
    reason: ToolFailureReason,
    message: string,
    cause?: unknown,
  ): Promise<ToolCallOutcome> {
    const text = this.capped(message);
    const { notices, restart } = await this.injector.evaluate({
      toolName: call.toolName,
      toolCallId: call.toolCallId,
      input,
      resultText: text,
      value: undefined,
      isError: true,
      iteration,
      history,
    });
    return {
      part: this.report(call, iteration, reason, `${text}${this.noticeText(notices)}`, cause),
      restart,
    };
  }

  /** Tells observers a call starts (a call held for approval has not started). */
  private started(call: ModelToolCall, iteration: number): void {
    this.setup.events.emit({
      type: "ToolCallStarted",
      iteration,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
    });
  }

  /** Injects tools a dynamic source added (see `RunSession.refreshSources`); returns the names now held. */
  injectFromSource(tools: readonly AnyTool[], label: string): string[] {
    return this.injector.inject(tools, label);
  }

  /** The error that ends the run once the model has called too many unknown tools in a row. */
  tooManyUnknownTools(): ToolNotFoundError | undefined {
    return this.unknownTools.verdict(this.setup.registry.names());
  }

  /**
   * A call its driver answers before it reaches a tool (a dispatcher call whose arguments name none: see
   * `unwrapDispatch`): it starts and fails with `invalid-input`, as a call its tool's schema refuses.
   */
  refuse(call: ModelToolCall, iteration: number, message: string): ToolResultPart {
    this.started(call, iteration);
    return this.fail(call, iteration, "invalid-input", message);
  }

  /**
   * The error result of a call that failed or will not run (also one the driver ends: the run was
   * cancelled or restarts, the id repeats, an MCP server's call whose strategy threw), told to observers
   * as a `ToolFailed`; `cause`, what was thrown, is for observers only (see `ToolFailedEvent.cause`).
   */
  fail(
    call: ModelToolCall,
    iteration: number,
    reason: ToolFailureReason,
    message: string,
    cause?: unknown,
  ): ToolResultPart {
    return this.report(call, iteration, reason, this.capped(message), cause);
  }

  /** Tells observers of a failed call (`text`, what the model reads) and gives its error result. */
  private report(
    call: ModelToolCall,
    iteration: number,
    reason: ToolFailureReason,
    text: string,
    cause: unknown,
  ): ToolResultPart {
    this.setup.events.emit({
      type: "ToolFailed",
      iteration,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
      reason,
      message: text,
      ...callProvider(this.setup.registry.get(call.toolName), call.input),
      ...(cause === undefined ? {} : { cause }),
    });
    return resultPart(call, { type: "error-text", value: text });
  }

  /** The strategies' notices as appended to a result, each in brackets, capped as a result is; "" for none. */
  private noticeText(notices: readonly string[]): string {
    if (notices.length === 0) return "";
    return `\n\n${this.capped(notices.map((n) => `[${n}]`).join("\n"))}`;
  }

  /** Error text and notices are held to the same cap as results. */
  private capped(text: string): string {
    return serializeToolResult(text, { maxChars: this.setup.settings.maxResultChars });
  }
}
