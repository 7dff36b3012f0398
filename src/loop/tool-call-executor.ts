import type { ModelMessage, ToolResultPart } from "ai";
import type { ModelToolCall } from "../adapters/model-adapter.js";
import type { RunEvents } from "../events/run-events.js";
import type { ToolFailureReason } from "../events/tool-loop-event.js";
import { validateAgainst } from "../schema/validate.js";
import type { ToolInjectionResult, ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import { serializeToolResult } from "../tools/serialize-result.js";
import type { AnyTool } from "../tools/tool.js";
import type { ToolAddOutcome, ToolRegistry } from "../tools/tool-registry.js";
import { closestNames } from "./did-you-mean.js";
import { StrategyError, ToolLoopError, ToolNotFoundError } from "./errors.js";
import { runThroughMiddleware, type ToolMiddleware } from "./tool-middleware.js";
import { findUnsafeKey } from "./unsafe-keys.js";

/** Settings of the executor, shared by every call of a run. */
export interface ToolCallExecutorOptions {
  readonly strategies: readonly ToolInjectionStrategy[];
  readonly middleware: readonly ToolMiddleware[];
  /** Per-call time limit in milliseconds; none when absent. */
  readonly toolTimeoutMs?: number;
  readonly maxResultChars?: number;
  readonly signal?: AbortSignal;
  /** Unknown tools called in a row before the run gives up. */
  readonly maxUnknownToolCalls: number;
}

const MAX_LISTED_TOOLS = 30;

/**
 * Runs one tool call the way every backend needs it run: resolve the name, check and validate the input,
 * execute (with middleware, time limit and cancellation), serialize for the model, let every strategy
 * evaluate the live value, and apply their changes to the registry. Every failure becomes an error result
 * the model reads; nothing here ends the run except cancellation and a failing strategy.
 */
export class ToolCallExecutor {
  /** Every tool added during the run, in order. */
  readonly injected: AnyTool[] = [];
  private unknownStreak = 0;
  private lastUnknown = "";

  constructor(
    private readonly registry: ToolRegistry,
    private readonly events: RunEvents,
    private readonly options: ToolCallExecutorOptions,
  ) {}

  async execute(
    call: ModelToolCall,
    iteration: number,
    history: readonly ModelMessage[],
  ): Promise<ToolResultPart> {
    const runSignal = this.options.signal;
    if (runSignal?.aborted) throw runSignal.reason;
    const tool = this.registry.get(call.toolName);
    this.unknownStreak = tool ? 0 : this.unknownStreak + 1;
    if (!tool) {
      this.lastUnknown = call.toolName;
      return this.fail(call, iteration, "unknown-tool", this.unknownToolMessage(call.toolName));
    }
    const problem = inputProblem(tool, call);
    if (problem) return this.fail(call, iteration, "invalid-input", problem);

    this.registry.markUsed(tool.name);
    const input = call.input as Record<string, unknown>;
    const started = performance.now();
    let value: unknown;
    try {
      value = await this.invoke(tool, input, call.toolCallId);
    } catch (error) {
      if (error instanceof ToolTimeout) {
        return this.fail(
          call,
          iteration,
          "timeout",
          `Tool "${tool.name}" did not finish within ${error.ms} ms`,
        );
      }
      if (runSignal?.aborted) throw runSignal.reason ?? error;
      return this.fail(call, iteration, "threw", `Tool "${tool.name}" failed: ${describeThrown(error)}`);
    }
    let text = serializeToolResult(value, { maxChars: this.options.maxResultChars });
    this.events.emit({
      type: "ToolInvoked",
      iteration,
      toolCallId: call.toolCallId,
      toolName: tool.name,
      input,
      resultText: text,
      durationMs: performance.now() - started,
    });
    const notices = await this.applyStrategies(tool.name, input, text, value, iteration, history);
    if (notices.length > 0) text = `${text}\n\n${notices.map((n) => `[${n}]`).join("\n")}`;
    return resultPart(call, { type: "text", value: text });
  }

  /** The error that ends the run once the model has called too many unknown tools in a row. */
  tooManyUnknownTools(): ToolNotFoundError | undefined {
    if (this.unknownStreak < this.options.maxUnknownToolCalls) return undefined;
    return new ToolNotFoundError(this.lastUnknown, this.registry.names(), this.unknownStreak);
  }

  /** Error results for calls that will not run because the run was cancelled. */
  cancelled(call: ModelToolCall, iteration: number): ToolResultPart {
    return this.fail(call, iteration, "cancelled", "The run was cancelled before this tool finished");
  }

  private async invoke(tool: AnyTool, input: Record<string, unknown>, toolCallId: string): Promise<unknown> {
    const controller = new AbortController();
    const { signal: runSignal, toolTimeoutMs, middleware } = this.options;
    const stops: Promise<never>[] = [];
    const cleanup: (() => void)[] = [];
    if (runSignal) {
      stops.push(
        new Promise<never>((_, reject) => {
          const onAbort = () => {
            controller.abort(runSignal.reason);
            reject(runSignal.reason);
          };
          runSignal.addEventListener("abort", onAbort, { once: true });
          cleanup.push(() => runSignal.removeEventListener("abort", onAbort));
        }),
      );
    }
    if (toolTimeoutMs !== undefined) {
      stops.push(
        new Promise<never>((_, reject) => {
          const timer = setTimeout(() => {
            controller.abort(new ToolTimeout(toolTimeoutMs));
            reject(new ToolTimeout(toolTimeoutMs));
          }, toolTimeoutMs);
          cleanup.push(() => clearTimeout(timer));
        }),
      );
    }
    try {
      const running = runThroughMiddleware(middleware, {
        tool,
        input,
        context: { toolCallId, signal: controller.signal },
      });
      return await Promise.race([running, ...stops]);
    } finally {
      for (const undo of cleanup) undo();
    }
  }

  private async applyStrategies(
    toolName: string,
    toolInput: unknown,
    result: string,
    resultObject: unknown,
    iteration: number,
    history: readonly ModelMessage[],
  ): Promise<string[]> {
    const notices: string[] = [];
    for (const strategy of this.options.strategies) {
      let delta: ToolInjectionResult;
      try {
        delta = await strategy.evaluateToolResult({
          conversationHistory: history,
          currentTools: this.registry.all(),
          lastToolCall: { toolName, toolInput, result, resultObject },
          iterationCount: iteration,
        });
      } catch (error) {
        if (error instanceof ToolLoopError) throw error; // deliberate, e.g. a restart request
        throw new StrategyError(toolName, error);
      }
      notices.push(...(delta.notices ?? []));
      if (delta.remove && delta.remove.length > 0) {
        const removed = this.registry.remove(delta.remove);
        if (removed.length > 0)
          this.events.emit({
            type: "ToolsRemoved",
            toolNames: removed.map((t) => t.name),
            reason: "strategy",
          });
      }
      if (delta.add && delta.add.length > 0) {
        const outcome = this.registry.add(delta.add);
        this.report(outcome, toolName, delta.sectionKey);
        if (outcome.evicted.length > 0) notices.push(evictionNotice(outcome.evicted));
      }
    }
    return notices;
  }

  private report(outcome: ToolAddOutcome, triggeredBy: string, sectionKey: string | undefined): void {
    const fresh = [...outcome.added, ...outcome.replaced.map((r) => r.next)];
    if (fresh.length === 0) return;
    this.injected.push(...fresh);
    const replacedNames = new Set(outcome.replaced.map((r) => r.next.name));
    const byInstance = new Map<object, AnyTool[]>();
    for (const tool of fresh) {
      if (tool.origin?.instanceId === undefined) continue;
      const group = byInstance.get(tool.origin.instance) ?? [];
      group.push(tool);
      byInstance.set(tool.origin.instance, group);
    }
    for (const tools of byInstance.values()) {
      const origin = tools[0]!.origin!;
      this.events.emit({
        type: "ToolProviderDiscovered",
        providerClass: origin.providerClass,
        instanceId: origin.instanceId!,
        exposedTools: tools.map((t) => t.name),
        replacedEarlierInstance: tools.some((t) => replacedNames.has(t.name)),
      });
    }
    this.events.emit({ type: "ToolsInjected", toolNames: fresh.map((t) => t.name), triggeredBy, sectionKey });
    if (outcome.evicted.length > 0) {
      this.events.emit({
        type: "ToolsRemoved",
        toolNames: outcome.evicted.map((t) => t.name),
        reason: "budget",
      });
    }
  }

  private fail(
    call: ModelToolCall,
    iteration: number,
    reason: ToolFailureReason,
    message: string,
  ): ToolResultPart {
    this.events.emit({
      type: "ToolFailed",
      iteration,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
      reason,
      message,
    });
    return resultPart(call, { type: "error-text", value: message });
  }

  private unknownToolMessage(name: string): string {
    const names = this.registry.names();
    const close = closestNames(name, names);
    const listed =
      names.length > MAX_LISTED_TOOLS
        ? `${names.slice(0, MAX_LISTED_TOOLS).join(", ")}, …`
        : names.join(", ");
    return [
      `Unknown tool "${name}".`,
      close.length > 0 ? `Did you mean: ${close.join(", ")}?` : "",
      `Available tools: ${listed || "(none)"}.`,
    ]
      .filter(Boolean)
      .join(" ");
  }
}

class ToolTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/** Why the model's input cannot be passed to `tool`, or undefined when it can. */
function inputProblem(tool: AnyTool, call: ModelToolCall): string | undefined {
  const prefix = `Invalid arguments for "${tool.name}":`;
  if (call.inputError) return `${prefix} ${call.inputError}. Send a JSON object keyed by parameter name.`;
  const input = call.input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    const kind = Array.isArray(input) ? "an array" : input === null ? "null" : `a ${typeof input}`;
    return `${prefix} expected a JSON object keyed by parameter name, got ${kind}.`;
  }
  const unsafe = findUnsafeKey(input);
  if (unsafe) return `${prefix} the key "${unsafe}" is not allowed.`;
  const validation = validateAgainst(tool.inputSchema, input);
  return validation.ok ? undefined : `${prefix} ${validation.problems.join("; ")}.`;
}

function describeThrown(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

function evictionNotice(evicted: readonly AnyTool[]): string {
  return (
    `Tool budget reached: these least recently used tools were removed: ${evicted.map((t) => t.name).join(", ")}. ` +
    "Call the tool that returned their object again to get them back."
  );
}

function resultPart(call: ModelToolCall, output: ToolResultPart["output"]): ToolResultPart {
  return { type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output };
}
