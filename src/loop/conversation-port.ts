import type { AnyTool } from "../tools/tool.js";
import type { ModelToolCall, TokenUsage } from "./model-port.js";

/** What the backend gets back for one tool call it asked us to run. */
export interface ConversationToolResult {
  /** The text the model reads (a result or an error message). */
  readonly text: string;
  readonly isError: boolean;
  /**
   * The run cannot go on in this conversation (its tool set changed, or a restart was asked for): a
   * backend with fixed tools should stop the turn.
   */
  readonly stopTurn: boolean;
}

/** How a conversation is opened: its instructions, its fixed tools, and how to run a tool call. */
export interface ConversationSetup {
  readonly system?: string;
  readonly tools: readonly AnyTool[];
  /** Runs a call through the run session (validation, errors, strategies, events). */
  callTool(call: ModelToolCall): Promise<ConversationToolResult>;
  readonly signal?: AbortSignal;
}

/** The end of one turn: the agent's final message, or a stop the run asked for. */
export interface ConversationTurn {
  readonly text: string;
  /** The turn was stopped because a tool result asked for it (see `ConversationToolResult.stopTurn`). */
  readonly stopped: boolean;
  /** Tokens the backend reported for this turn, when it reports them. */
  readonly usage?: Partial<TokenUsage>;
}

/** One conversation (a thread) with a fixed tool set. */
export interface Conversation {
  /** Sends user text and resolves when the turn is over; tool calls in between go through `callTool`. */
  send(text: string): Promise<ConversationTurn>;
  /** Ends the conversation and frees what it holds (a child process, a socket). */
  close(): Promise<void>;
}

/** What a backend with fixed tools does when tools appear during a turn. */
export type NewToolsMode = "restart" | "dispatch";

/**
 * The port of a backend that runs the agent's model loop itself and asks us to run tools, with the tool
 * set fixed when a conversation opens (the Codex app-server). New tools mean either a new conversation
 * with the updated tool set (`restart`) or a dispatcher tool that reaches them by name (`dispatch`).
 */
export interface ConversationAdapter {
  readonly supportsDynamicTools: false;
  readonly newTools: NewToolsMode;
  openConversation(setup: ConversationSetup): Promise<Conversation>;
}

/** Whether an adapter is conversation-based (as opposed to one model step at a time). */
export function isConversationAdapter(adapter: object): adapter is ConversationAdapter {
  return typeof (adapter as Partial<ConversationAdapter>).openConversation === "function";
}
