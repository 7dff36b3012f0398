import type { JsonSchema } from "../../schema/json-schema.js";
import type { AnyTool } from "../../tools/tool.js";
import type { ToolContentPart } from "../../tools/tool-content.js";
import type { ToolResultMediaTypes } from "../results/media-types.js";
import type { ModelToolCall, ReportedTokenUsage } from "./model-port.js";

/** What the backend gets back for one tool call it asked us to run. */
export interface ConversationToolResult {
  /** The text the model reads (a result or an error message). */
  readonly text: string;
  /**
   * Set when the result holds media (images, audio, files) the backend takes: the result as parts, text
   * included; `text` then names each media part. A backend that cannot carry a part sends `text`.
   */
  readonly parts?: readonly ToolContentPart[];
  /** True when the call failed: `text` is the error message the model reads. */
  readonly isError: boolean;
  /**
   * The run cannot go on in this conversation (its tool set changed, or a restart was asked for): a
   * backend with fixed tools should stop the turn.
   */
  readonly stopTurn: boolean;
  /**
   * `dynamic` mode only, when this call changed the run's tool set (discovery, a section read, a removal or
   * the budget): every tool the conversation offers from now on. The backend returns the call's result
   * once its model's next request will carry them; when it cannot, it ends the turn and says why
   * (`ConversationTurn.toolsNotOffered`), and the run goes on in a new conversation that has them.
   */
  readonly tools?: readonly AnyTool[];
}

/** How a conversation is opened: its instructions, its fixed tools, and how to run a tool call. */
export interface ConversationSetup {
  /** The system prompt, rendered; absent: none. */
  readonly system?: string;
  /** The tools the conversation offers from its start. */
  readonly tools: readonly AnyTool[];
  /** Runs a call through the run session (validation, errors, strategies, events). */
  callTool(call: ModelToolCall): Promise<ConversationToolResult>;
  /** Aborted when the run is cancelled: the backend should stop the turn then. */
  readonly signal?: AbortSignal;
  /**
   * The schema of the run's structured output, when it has one. A backend with its own structured output
   * may use it; the final text it returns is still the JSON the run validates.
   */
  readonly outputSchema?: JsonSchema;
}

/** The end of one turn: the agent's final message, or a stop the run asked for. */
export interface ConversationTurn {
  /** The agent's last message of the turn (a stopped turn's: what it wrote before the stop, maybe ""). */
  readonly text: string;
  /** The turn was stopped because a tool result asked for it (see `ConversationToolResult.stopTurn`). */
  readonly stopped: boolean;
  /** Tokens the backend reported for this turn, when it reports them. */
  readonly usage?: ReportedTokenUsage | undefined;
  /** The model the backend names for this turn (what pricing looks up), when it names one. */
  readonly modelId?: string | undefined;
  /**
   * Tokens of the turn's calls of other models than `modelId`, one entry per model, when the backend
   * reports them (Claude Code's subagents and helper calls on a smaller model). Each is reported on the
   * turn's last step as a response of its own, priced as its own model.
   */
  readonly otherModels?: readonly ConversationModelUsage[] | undefined;
  /**
   * The turn was stopped because the backend could not offer tools a call added (`dynamic` mode): which
   * tools, and why. The run continues in a new conversation that has them, as in `restart` mode.
   */
  readonly toolsNotOffered?: { readonly toolNames: readonly string[]; readonly reason: string } | undefined;
}

/** The tokens one model spent during a conversation turn. */
export interface ConversationModelUsage {
  /** The model, as pricing looks it up. */
  readonly modelId: string;
  /** Its tokens during the turn. */
  readonly usage: ReportedTokenUsage;
}

/** One conversation (a thread) with a fixed tool set. */
export interface Conversation {
  /** Sends user text and resolves when the turn is over; tool calls in between go through `callTool`. */
  send(text: string): Promise<ConversationTurn>;
  /** Ends the conversation and frees what it holds (a child process, a socket). */
  close(): Promise<void>;
}

/**
 * What a backend that keeps its own thread does when tools appear during a turn (see "New-tools mode" in
 * docs/glossary.md): `"dynamic"`, the running thread takes them (a backend that can, such as Claude Code);
 * `"restart"`, a new thread with the new tool set; `"dispatch"`, one fixed dispatcher tool reaches them.
 */
export type NewToolsMode = "dynamic" | "restart" | "dispatch";

/**
 * The new-tools modes of a backend whose tools are fixed when a thread starts (Codex).
 */
export type FixedToolsMode = Exclude<NewToolsMode, "dynamic">;

/**
 * The new-tools modes, under their earlier name.
 *
 * @deprecated Use {@link NewToolsMode}, which now names all three modes.
 */
export type ConversationNewTools = NewToolsMode;

/**
 * The port of a backend that runs the agent's model loop itself and asks us to run tools (the Codex
 * app-server, Claude Code). New tools mean a new conversation with the updated tool set (`restart`), a
 * dispatcher tool that reaches them by name (`dispatch`), or, on a backend that can change its tools
 * mid-conversation (`supportsDynamicTools`), the same conversation offering them from its next request
 * (`dynamic`). The driver reads these fields, never the adapter's class.
 */
export interface ConversationAdapter {
  /** Whether a running conversation takes new tools (true exactly when `newTools` is `"dynamic"`). */
  readonly supportsDynamicTools: boolean;
  /** What it does when tools appear during a turn: the thread takes them, a new thread, or a dispatcher. */
  readonly newTools: NewToolsMode;
  /** The media its agent takes inside a tool result, as on `ModelAdapter`. Undefined: every part is sent. */
  readonly toolResultMediaTypes?: ToolResultMediaTypes | undefined;
  /** Starts a thread on the backend with the run's tools and instructions. */
  openConversation(setup: ConversationSetup): Promise<Conversation>;
}

/** Whether an adapter is conversation-based (as opposed to one model step at a time). */
export function isConversationAdapter(adapter: object): adapter is ConversationAdapter {
  return typeof (adapter as Partial<ConversationAdapter>).openConversation === "function";
}
