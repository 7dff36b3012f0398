import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { RunEvents } from "../events/run-events.js";
import type { ToolLoopObserver } from "../events/tool-loop-event.js";
import { dispatcherTool, dispatchNotice, unwrapDispatch } from "../loop/dispatcher-tool.js";
import { ToolCallExecutor } from "../loop/execution/tool-call-executor.js";
import { resultText } from "../loop/result-text.js";
import type { ToolMiddleware } from "../loop/execution/tool-middleware.js";
import { DEFAULT_RUN_SETTINGS, withSettings } from "../loop/run-settings.js";
import type { ToolInjectionStrategy } from "../strategies/tool-injection-strategy.js";
import { ToolProviderStrategy } from "../strategies/tool-provider-strategy.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { toolsFrom, type ToolSource } from "../tools/tool-sources.js";

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  readonly name: string;
  readonly version: string;
  /** The tools every session starts with: objects with `@LlmTool` methods, or `defineTool` tools. */
  readonly tools: readonly ToolSource[];
  /** `@ToolProvider` instances returned by a call add their tools to that session. */
  readonly discovery?: boolean;
  /** Most discovered tools a session holds (least recently used go first). Default 64. */
  readonly maxInjectedTools?: number;
  /** More strategies, run after discovery, after every successful call. */
  readonly strategies?: readonly ToolInjectionStrategy[];
  readonly middleware?: readonly ToolMiddleware[];
  /** Per-call time limit in milliseconds. */
  readonly toolTimeoutMs?: number;
  /** Longest result text sent back. Default 16 000. */
  readonly maxResultChars?: number;
  /** Receives every event of the session (tool calls, discoveries, injections). */
  readonly observers?: readonly ToolLoopObserver[];
  /**
   * For clients that do not re-list tools on `list_changed` (the Codex CLI, as of 0.169): also offer a
   * fixed `call_discovered_tool { tool_name, arguments }`, and describe newly discovered tools (names,
   * descriptions, schemas) in the result of the call that found them.
   */
  readonly dispatch?: boolean;
}

/**
 * An MCP server of the official SDK offering entity tools. Connect it to any SDK server transport
 * (stdio, Streamable HTTP, in-memory); one server is one session (the SDK's server holds one transport),
 * so a multi-session transport creates one per session. Each session has its own registry: a call that
 * returns providers binds their tools for that session only, and the server announces
 * `notifications/tools/list_changed`, for removals and budget evictions too. Every call goes through the
 * same executor as a run: validation, typed input, time limit, serialization, strategies, events; a
 * failure is an `isError` result with the message. Closing the session releases its providers.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const settings = withSettings(DEFAULT_RUN_SETTINGS, {
    maxInjectedTools: options.maxInjectedTools,
    toolTimeoutMs: options.toolTimeoutMs,
    maxResultChars: options.maxResultChars,
  });
  const registry = new ToolRegistry(toolsFrom(options.tools, []), {
    maxInjectedTools: settings.maxInjectedTools,
  });
  const events = new RunEvents(options.observers ?? []);
  const strategies = [
    ...(options.discovery ? [new ToolProviderStrategy()] : []),
    ...(options.strategies ?? []),
  ];
  const server = new Server(
    { name: options.name, version: options.version },
    { capabilities: { tools: { listChanged: true } } },
  );

  const offered = () => (options.dispatch ? [...registry.all(), dispatcherTool] : registry.all());
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: offered().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
  }));

  let calls = 0;
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const before = new Set(registry.names());
    // One executor per call, so the call's own signal (the client cancelled, or left) stops it.
    const executor = new ToolCallExecutor({
      registry,
      events,
      settings,
      strategies,
      middleware: options.middleware ?? [],
      signal: extra.signal,
    });
    const call = unwrapDispatch({
      toolCallId: String(extra.requestId),
      toolName: request.params.name,
      input: request.params.arguments ?? {},
    });
    let text: string;
    let isError: boolean;
    try {
      const { part } = await executor.execute(call, ++calls, []);
      isError = part.output.type === "error-text";
      text = resultText(part.output);
    } catch {
      // Only cancellation ends a call this way; a failing strategy is reported the same.
      isError = true;
      text = extra.signal.aborted
        ? "The call was cancelled"
        : `The call of "${request.params.name}" failed in the server`;
    }
    const fresh = registry.all().filter((t) => !before.has(t.name));
    if (fresh.length > 0 && options.dispatch) text = `${text}\n\n${dispatchNotice(fresh)}`;
    if (fresh.length > 0 || registry.size !== before.size) await server.sendToolListChanged().catch(() => {});
    return { content: [{ type: "text", text }], isError };
  });

  server.onclose = () => {
    registry.remove(registry.names()); // the session's providers are no longer reachable, nor kept alive
  };
  return server;
}
