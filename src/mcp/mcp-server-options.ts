// createMcpServer's options, named as the runner names the same concepts (toolMiddleware for
// withToolMiddleware, injectionStrategies for withInjectionStrategy, newTools for a backend's newTools);
// the older names stay accepted, deprecated, so existing servers keep compiling.
import { InvalidSettingError } from "../errors/entity-tools-error.js";
import type { ToolLoopObserver } from "../events/tool-loop-event.js";
import type { RunLogTarget } from "../run-log/run-log-options.js";
import type { ApprovalPredicate } from "../loop/execution/approval-gate.js";
import type { NewToolsMode } from "../loop/ports/conversation-port.js";
import type { ToolMiddleware } from "../loop/execution/tool-middleware.js";
import type { ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import type { HandleKey } from "../tools/entity-handle.js";
import type { ProviderResolver } from "../tools/entity-handle-bindings.js";
import type { ToolSource } from "../tools/tool-sources.js";

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** The server's name, as `initialize` tells clients. */
  readonly name: string;
  /** The server's version, as `initialize` tells clients. */
  readonly version: string;
  /**
   * The tools every caller gets: objects with `@LlmTool` methods, or `defineTool` tools. A server reads
   * the array when it is made (as it reads `classes` and a list of keys): changing the array in place
   * afterwards changes nothing for that server, whose list changes only in ways it announces
   * (`list_changed`); a server made later (the next HTTP request's, the next stdio connection's) reads
   * the array as it is then. To change what long-lived sessions offer, make new servers.
   */
  readonly tools: readonly ToolSource[];
  /**
   * 2025-11-25: `@ToolProvider` instances returned by a call add their tools to that session. On
   * 2026-07-28, providers are reached through the handle tools of `classes` instead.
   */
  readonly discovery?: boolean | undefined;
  /**
   * The `@ToolProvider` classes whose handle tools the 2026-07-28 list offers (`customer_getAverageSpend`
   * with a `handle` argument); a call's result names the handle of every provider it returned. Default,
   * with `discovery`: the classes the generated schema module says the tools can return; else none. A
   * class not listed cannot be reached on 2026-07-28 (the list never changes).
   */
  readonly classes?: readonly Function[] | undefined;
  /**
   * The key handles (and approval questions) are signed with, or a list for rotation (the first signs, any
   * verifies); at least 16 bytes each. Default: one random key per process, so handles work across the
   * requests this process serves; give the same key to every process behind one endpoint. A key given as
   * bytes is copied the first time a server is made with it: changing or wiping the buffer afterwards
   * changes nothing (a new key is a new value: another buffer, or text). `undefined` (an unset environment
   * variable) is the default.
   */
  readonly handleKey?: HandleKey | undefined;
  /**
   * Finds a provider again by class (source name) and id, for a handle minted by another call: required
   * for handles over HTTP, where every request is served by a fresh server.
   */
  readonly resolveProvider?: ProviderResolver | undefined;
  /** Calls this picks (besides tools marked `needsApproval`) need a person's approval. */
  readonly approval?: ApprovalPredicate | undefined;
  /** How long a client may keep the 2026-07-28 tool list, in milliseconds. Default 300 000 (5 minutes). */
  readonly listTtlMs?: number | undefined;
  /** Most discovered tools a 2025-11-25 session holds (least recently used go first). Default 64. */
  readonly maxInjectedTools?: number | undefined;
  /** More strategies, run after discovery, after every call, failed ones included (the runner's `withInjectionStrategy`). */
  readonly injectionStrategies?: readonly ToolInjectionStrategy[] | undefined;
  /**
   * The earlier name of `injectionStrategies`.
   *
   * @deprecated Use `injectionStrategies` (the runner's `withInjectionStrategy`); still accepted.
   */
  readonly strategies?: readonly ToolInjectionStrategy[] | undefined;
  /** Wraps every tool call, in the order given (the runner's `withToolMiddleware`). */
  readonly toolMiddleware?: readonly ToolMiddleware[] | undefined;
  /**
   * The earlier name of `toolMiddleware`.
   *
   * @deprecated Use `toolMiddleware` (the runner's `withToolMiddleware`); still accepted.
   */
  readonly middleware?: readonly ToolMiddleware[] | undefined;
  /** Per-call time limit in milliseconds. */
  readonly toolTimeoutMs?: number | undefined;
  /** Longest result text sent back. Default 16 000. */
  readonly maxResultChars?: number | undefined;
  /** Most bytes of media (decoded) in one result; past it, a part is described in text. Default 20 000 000. */
  readonly maxResultMediaBytes?: number | undefined;
  /** Receive every event of the server (tool calls, discoveries, injections); the runner's `withObserver`. */
  readonly observers?: readonly ToolLoopObserver[] | undefined;
  /**
   * Log the calls this server serves, as the runner's `withRunLog` does: a folder, or the folder with
   * options. One file per server instance (a 2025-11-25 session; each request on 2026-07-28 over HTTP),
   * written when its first call ends, each call a step with the tools the server listed then.
   *
   * @throws RunLogError from `createMcpServer` when the folder cannot be written
   */
  readonly runLog?: string | RunLogTarget | undefined;
  /**
   * What a 2025-11-25 session does with tools a call discovers, as the runner's `newTools`: `"dynamic"`
   * (default: they join the session's list, announced by `list_changed`) or `"dispatch"`, for clients that
   * do not re-list tools on `list_changed` (the Codex CLI, as of 0.169): also offer a fixed
   * `call_discovered_tool { tool_name, arguments }`, and describe newly discovered tools in the result of
   * the call that found them.
   */
  readonly newTools?: McpNewToolsMode | undefined;
  /**
   * True: the same as `newTools: "dispatch"`.
   *
   * @deprecated Use `newTools: "dispatch"`; still accepted.
   */
  readonly dispatch?: boolean | undefined;
}

/** The new-tools modes an MCP server has (a server cannot restart its client's thread). */
export type McpNewToolsMode = Exclude<NewToolsMode, "restart">;

/** The options' parts under their current names, the deprecated names folded in. */
export interface McpServerParts {
  readonly toolMiddleware: readonly ToolMiddleware[];
  readonly injectionStrategies: readonly ToolInjectionStrategy[];
  readonly dispatch: boolean;
}

/**
 * `options` under one name per concept: a deprecated name's values join the current name's (middleware
 * and strategies after the current ones).
 *
 * @throws InvalidSettingError for a `newTools` the server does not have, or one that contradicts `dispatch`.
 */
export function mcpServerParts(options: McpServerOptions): McpServerParts {
  const { newTools, dispatch } = options;
  if (newTools !== undefined && newTools !== "dynamic" && newTools !== "dispatch")
    throw new InvalidSettingError("newTools", newTools, '"dynamic" or "dispatch"');
  if (newTools !== undefined && dispatch !== undefined && dispatch !== (newTools === "dispatch"))
    throw new InvalidSettingError(
      "dispatch",
      dispatch,
      `${newTools === "dispatch"} with newTools: "${newTools}" (or left out)`,
    );
  return {
    toolMiddleware: [...(options.toolMiddleware ?? []), ...(options.middleware ?? [])],
    injectionStrategies: [...(options.injectionStrategies ?? []), ...(options.strategies ?? [])],
    dispatch: newTools === "dispatch" || dispatch === true,
  };
}
