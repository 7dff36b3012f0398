import { InvalidSettingError } from "../errors/entity-tools-error.js";
import { childEnvironment } from "../local/child-environment.js";
import type {
  Conversation,
  ConversationAdapter,
  NewToolsMode,
  ConversationSetup,
} from "../loop/ports/conversation-port.js";
import { ClaudeConversation } from "./claude-conversation.js";
import { CLAUDE_RESULT_MEDIA_TYPES } from "./claude-tool-server.js";
import { loadClaudeAgentSdk, type Options, type SettingSource } from "./claude-sdk.js";

/**
 * The SDK's `query()` options this backend sets itself, left out of `sdkOptions`. Some have a field of
 * their own in {@link ClaudeAgentSdkOptions} (`env`, `model`, `cwd`, `allowedTools`, `settingSources`, and
 * `tools` as `builtInTools`); the backend alone decides the rest (its MCP server, the system prompt and
 * output format, permissions, cancellation, sessions).
 */
export type ClaudeAgentSdkOwnedOption =
  | "mcpServers"
  | "systemPrompt"
  | "outputFormat"
  | "abortController"
  | "permissionMode"
  | "allowDangerouslySkipPermissions"
  | "tools"
  | "allowedTools"
  | "settingSources"
  | "env"
  | "model"
  | "cwd"
  | "persistSession";

/** Options of {@link ClaudeAgentSdkAdapter}. */
export interface ClaudeAgentSdkOptions {
  /**
   * Extra environment for the Claude Code process, on top of this process's (`ANTHROPIC_API_KEY`,
   * `ANTHROPIC_BASE_URL`, `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC`...). Values are typed as
   * `process.env`'s are: a variable given as `undefined` is not set by it, and keeps this process's value
   * (`{ ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY }` is the same as leaving it out).
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The Claude model; default Claude Code's. */
  readonly model?: string | undefined;
  /**
   * When tools appear during a call (discovery, a section read): `"dynamic"` (default) offers them in the
   * running process from its next model request; `"restart"` stops the turn and continues in a new process
   * that has them; `"dispatch"` keeps the process and reaches them through `call_discovered_tool`.
   */
  readonly newTools?: NewToolsMode | undefined;
  /**
   * Longest wait, in milliseconds, for Claude Code to list the tools again after a call changed them
   * (dynamic mode). Past it the run continues in a new process, as in restart mode, and observers get a
   * `DynamicToolsFallback` event. Default 10 000.
   */
  readonly relistTimeoutMs?: number | undefined;
  /**
   * Longest wait, in milliseconds, for one turn (Claude Code's model requests and our tool calls until its
   * answer). Past it the turn is interrupted and the run fails with a `ModelCallError`. Default 600 000.
   */
  readonly turnTimeoutMs?: number | undefined;
  /**
   * Claude Code's built-in tools to offer besides ours (`["Read", "Grep"]`), or its whole preset. Default
   * none. Claude Code runs them itself, outside our executor; each must also be in `allowedTools`.
   */
  readonly builtInTools?: Options["tools"] | undefined;
  /**
   * Tools Claude Code may run without asking, besides ours (which it always may: our own approval gate
   * decides on them). Anything not allowed is denied; there is no interactive prompt.
   */
  readonly allowedTools?: readonly string[] | undefined;
  /** Settings files Claude Code reads (`"user"`, `"project"`, `"local"`). Default none. */
  readonly settingSources?: readonly SettingSource[] | undefined;
  /** The name of our in-process MCP server; the model sees `mcp__<serverName>__<tool>`. Default `"tools"`. */
  readonly serverName?: string | undefined;
  /** Claude Code's working directory. Default this process's. */
  readonly cwd?: string | undefined;
  /** Any other option of the SDK's `query()` (`maxBudgetUsd`, `pathToClaudeCodeExecutable`, `stderr`...). */
  readonly sdkOptions?: Omit<Options, ClaudeAgentSdkOwnedOption> | undefined;
}

const SERVER_NAME = /^[a-zA-Z0-9_-]{1,20}$/;

/**
 * The Claude Agent SDK (Claude Code, the native binary its npm package installs) as a backend. Claude
 * Code runs the model loop; our tools reach it through an in-process MCP server, and every call goes
 * through our executor (validation, typed input, timeouts, strategies, events, approvals).
 *
 * Claude Code lists an MCP server's tools again when the server announces a change, so tools discovered
 * during a call are offered in its next model request (`supportsDynamicTools`, `newTools: "dynamic"`).
 * It runs with our tools only (no built-in tools, no settings files) and never with
 * `bypassPermissions`, so it works as root: our tools are allowed outright and our gate decides on
 * approvals; anything else is denied unless the options allow it.
 */
export class ClaudeAgentSdkAdapter implements ConversationAdapter {
  /**
   * True (the default `newTools: "dynamic"`): tools that appear during a call join the running process,
   * and a summarized section's tools join when it is read. False when `newTools` is `"restart"` or
   * `"dispatch"`, which then behave as on Codex (a section read restarts the run with the re-rendered prompt).
   */
  readonly supportsDynamicTools: boolean;
  /** What it does when tools appear during a call: the option `newTools`, default `"dynamic"`. */
  readonly newTools: NewToolsMode;
  /** Images reach Claude Code's model as MCP image blocks; other media is described in text. */
  readonly toolResultMediaTypes = CLAUDE_RESULT_MEDIA_TYPES;
  private readonly serverName: string;
  private readonly relistTimeoutMs: number;
  private readonly turnTimeoutMs: number;

  /** @throws InvalidSettingError for a server name or a time limit it cannot use */
  constructor(private readonly options: ClaudeAgentSdkOptions = {}) {
    this.newTools = options.newTools ?? "dynamic";
    this.supportsDynamicTools = this.newTools === "dynamic";
    this.serverName = options.serverName ?? "tools";
    if (!SERVER_NAME.test(this.serverName))
      throw new InvalidSettingError("serverName", this.serverName, "1 to 20 of [a-zA-Z0-9_-]");
    this.relistTimeoutMs = positiveMs("relistTimeoutMs", options.relistTimeoutMs ?? 10_000);
    this.turnTimeoutMs = positiveMs("turnTimeoutMs", options.turnTimeoutMs ?? 600_000);
  }

  /** Starts a Claude Code process with the run's tools behind an in-process MCP server. */
  async openConversation(setup: ConversationSetup): Promise<Conversation> {
    const sdk = await loadClaudeAgentSdk();
    const o = this.options;
    return new ClaudeConversation(sdk, setup, {
      serverName: this.serverName,
      relistTimeoutMs: this.relistTimeoutMs,
      turnTimeoutMs: this.turnTimeoutMs,
      queryOptions: {
        ...o.sdkOptions,
        env: childEnvironment(o.env),
        ...(o.model ? { model: o.model } : {}),
        ...(o.cwd ? { cwd: o.cwd } : {}),
        tools: o.builtInTools ?? [],
        settingSources: [...(o.settingSources ?? [])],
        // Not `bypassPermissions` (refused as root): our server's tools are allowed, anything else denied.
        permissionMode: "dontAsk",
        allowedTools: [`mcp__${this.serverName}`, ...(o.allowedTools ?? [])],
        // A run's history is ours (the snapshot); Claude Code keeps no transcript of it.
        persistSession: false,
      },
    });
  }
}

function positiveMs(setting: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new InvalidSettingError(setting, value, "a positive number of milliseconds");
  return value;
}
