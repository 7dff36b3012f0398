import type { AnyTool, ToolExecutionContext } from "../../tools/tool.js";

/** A validated tool call about to run. */
export interface ToolCallInfo {
  /** The tool about to run. */
  readonly tool: AnyTool;
  /** Its input, validated against the tool's schema. */
  readonly input: Readonly<Record<string, unknown>>;
  /** What the tool's `execute` receives besides its input (the call's id, the run's signal). */
  readonly context: ToolExecutionContext;
}

/**
 * Wraps tool execution (logging, authorisation, caching, stubbing in tests). Call `next()` to run the
 * tool, or return a value of your own instead; what you return is what the loop serializes and discovers.
 */
export type ToolMiddleware = (call: ToolCallInfo, next: () => Promise<unknown>) => Promise<unknown>;

/** Runs `call` through the middleware chain, outermost first. */
export function runThroughMiddleware(
  middleware: readonly ToolMiddleware[],
  call: ToolCallInfo,
): Promise<unknown> {
  const invoke = (index: number): Promise<unknown> => {
    const layer = middleware[index];
    if (!layer) return Promise.resolve().then(() => call.tool.execute(call.input as never, call.context));
    return layer(call, () => invoke(index + 1));
  };
  return invoke(0);
}
