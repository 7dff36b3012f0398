import type { ModelMessage } from "ai";
import type { ReportedTokenUsage } from "../../events/token-usage.js";
import type { AnyTool } from "../../tools/tool.js";
import type { ToolResultMediaTypes } from "../results/media-types.js";

/** A tool call as the model made it; the run validates and runs it. */
export interface ModelToolCall {
  /** The call's id, as the model gave it: its result names it. */
  readonly toolCallId: string;
  /** The tool the model called, by name (it may name no tool). */
  readonly toolName: string;
  /** The parsed arguments, or the raw text when they were not JSON (see `inputError`). */
  readonly input: unknown;
  /** Set when the arguments could not be parsed. */
  readonly inputError?: string | undefined;
}

export type { ReportedTokenUsage, TokenUsage } from "../../events/token-usage.js";

/** One model call: everything the model sees at this step. */
export interface ModelStepRequest {
  /** The system prompt, rendered; absent: none. */
  readonly system?: string;
  /** The conversation so far, as AI SDK messages. */
  readonly messages: readonly ModelMessage[];
  /** The tools offered at this step. */
  readonly tools: readonly AnyTool[];
  /** Aborted when the run is cancelled: the call should stop then. */
  readonly signal?: AbortSignal;
}

/** What one model call produced. Tools are never executed by the adapter. */
export interface ModelStepResult {
  /** Messages to append to the conversation (the assistant's turn). */
  readonly responseMessages: readonly ModelMessage[];
  /** The tools the model asked to call, in order (none: its answer is final). */
  readonly toolCalls: readonly ModelToolCall[];
  /** The model's text (empty when it only called tools). */
  readonly text: string;
  /** Tokens of this call; fields the provider did not report count as 0. */
  readonly usage?: ReportedTokenUsage | undefined;
  /** The model the call asked for (the provider's model id), for events, spans and pricing. */
  readonly modelId?: string | undefined;
  /**
   * The model the provider's response names, when it is another than `modelId` (say a dated snapshot of
   * it); absent when they are the same.
   */
  readonly responseModelId?: string | undefined;
  /** Something the run's observers should know about this call (a degraded path); one event each. */
  readonly warnings?: readonly string[] | undefined;
}

/** What a streaming model call reports while it is still running. */
export type ModelStreamPart =
  | { readonly type: "text-delta"; readonly text: string }
  | { readonly type: "tool-call"; readonly call: ModelToolCall };

/**
 * The port of a backend the run drives one step at a time (the AI SDK adapter implements it).
 *
 * `supportsDynamicTools` says whether the tool set may change between steps of one conversation. When it
 * is false, anything that unlocks tools mid-run makes the runner restart with the new tool set.
 */
export interface ModelAdapter {
  /** Whether the tool set may change between steps of one conversation (false: the run restarts). */
  readonly supportsDynamicTools: boolean;
  /**
   * The media its model takes inside a tool result (`["image/*", "application/pdf"]`; `[]`: text only);
   * other media parts reach it as a text description, with a `ModelWarning`. Undefined: every part is sent.
   */
  readonly toolResultMediaTypes?: ToolResultMediaTypes | undefined;
  /** One model call: the conversation and tools so far in, the model's text or tool calls out. */
  step(request: ModelStepRequest): Promise<ModelStepResult>;
  /**
   * The same step, streamed: `onPart` hears text and tool calls as they arrive. Optional. What `onPart`
   * returns resolves when the run's reader is ready for more: await it before reading the next part, so
   * that a slow reader holds the model's stream back rather than a buffer of parts growing.
   */
  stream?(
    request: ModelStepRequest,
    onPart: (part: ModelStreamPart) => void | Promise<void>,
  ): Promise<ModelStepResult>;
}
