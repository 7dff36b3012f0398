import type { ModelMessage } from "ai";
import type { AnyTool } from "../tools/tool.js";

/** The tool call a strategy is asked about. */
export interface LastToolCall {
  readonly toolName: string;
  readonly toolInput: unknown;
  /** The text the model saw. */
  readonly result: string;
  /** The live value the tool returned (not a re-parse of `result`). */
  readonly resultObject: unknown;
}

/** What a strategy sees after a tool call. */
export interface ToolInjectionContext {
  readonly conversationHistory: readonly ModelMessage[];
  readonly currentTools: readonly AnyTool[];
  readonly lastToolCall: LastToolCall;
  /** The model step (1-based) whose tool call this is. */
  readonly iterationCount: number;
}

/**
 * The change a strategy asks for: tools to add and names to remove. The two optional extras are how
 * the library's own strategies report back: `notices` are appended to the result the model sees, and
 * `sectionKey` names the prompt section whose reading unlocked the added tools.
 */
export interface ToolInjectionResult {
  readonly add?: readonly AnyTool[];
  readonly remove?: readonly string[];
  readonly notices?: readonly string[];
  readonly sectionKey?: string;
}

/** Decides, after every successful tool call, which tools to add or remove before the next model call. */
export interface ToolInjectionStrategy {
  evaluateToolResult(context: ToolInjectionContext): ToolInjectionResult | Promise<ToolInjectionResult>;
}
