import type { AnyTool } from "../tools/tool.js";
import type { ModelToolCall } from "./model-adapter.js";

/** What the backend gets back for one tool call it asked us to run. */
export interface ConversationToolResult {
  /** The text the model reads (a result or an error message). */
  readonly text: string;
  readonly isError: boolean;
  /** The run's tool set changed (discovery): a backend with fixed tools should stop the turn. */
  readonly toolsChanged: boolean;
}

/** How a conversation is opened: its instructions, its fixed tools, and how to run a tool call. */
export interface ConversationSetup {
  readonly system?: string;
  readonly tools: readonly AnyTool[];
  /** Runs a call through the loop's executor (validation, errors, strategies, events). */
  callTool(call: ModelToolCall): Promise<ConversationToolResult>;
  readonly signal?: AbortSignal;
}

/** The end of one turn: the agent's final message, or a stop because new tools appeared. */
export interface ConversationTurn {
  readonly text: string;
  readonly stoppedForNewTools: boolean;
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
 * A backend that runs the agent's model loop itself and asks us to run tools, with the tool set fixed when a
 * conversation opens (the Codex app-server). The runner drives it with the conversation loop. New tools mean
 * either a new conversation with the updated tool set (`restart`) or a dispatcher tool that reaches them
 * by name (`dispatch`).
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
