// The binding of the official TypeScript SDK v2 (`@modelcontextprotocol/server`): the only file of the
// server that imports it. It serves both revisions the SDK speaks, from one configuration:
//   2026-07-28  stateless: one tool list for every caller and every call (plain tools, then the handle
//               tools of the provider classes), with ttlMs; providers a call finds are named by handle.
//   2025-11-25  the legacy per-session behaviour: a call that returns providers adds their tools to this
//               session's list and announces list_changed (the session is this server instance).
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  inputRequired,
  inputResponse,
  type CallToolRequest,
  type CallToolResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { RunEvents } from "../events/run-events.js";
import type { RunEventInit } from "../events/tool-loop-event.js";
import { runLogTarget, startRunLog, type RunLogStart } from "../run-log/run-log.js";
import { newRunId } from "../events/run-id.js";
import { DISPATCHER_TOOL, dispatchNotice, unwrapDispatch } from "../loop/drivers/dispatcher-tool.js";
import { loadRuntimeDependencies } from "../tools/runtime-dependencies.js";
import { ToolCallExecutor } from "../loop/execution/tool-call-executor.js";
import { resultText } from "../loop/results/result-text.js";
import { partsOfOutput } from "../loop/results/content-output.js";
import { mcpContentBlocks } from "../loop/results/mcp-content-blocks.js";
import type { ToolContentPart } from "../tools/tool-content.js";
import { DEFAULT_RUN_SETTINGS, withSettings } from "../loop/settings/run-settings.js";
import { ToolProviderStrategy } from "../strategies/tool-provider-strategy.js";
import type { AnyTool } from "../tools/tool.js";
import { mcpServerParts, type McpServerOptions } from "./mcp-server-options.js";
import { currentServerTools } from "./server-tools.js";
import { SessionEnd } from "./session-end.js";
import { SessionTools } from "./session-tools.js";
import { toolListResult } from "./tool-list-result.js";
import { APPROVAL_INPUT, approvalEvent, approvalForm, McpApprovals } from "./mcp-approval.js";

/** Default `ttlMs` of the 2026-07-28 tool list. */
export const DEFAULT_LIST_TTL_MS = 300_000;

/**
 * An MCP server of the official SDK v2 offering entity tools, for either protocol revision. Serve it with
 * the SDK's entries, which create one per request (HTTP, `createMcpHandler(() => createMcpServer(o))`) or
 * per connection (`serveStdio(() => createMcpServer(o), { transport: new McpStdioServerTransport() })`),
 * or connect it to a transport yourself (a sessionful HTTP host: `McpStreamableHTTPServerTransport`). Those
 * two transports answer what the SDK's leave unanswered (a stdio line that is no message or too long, a
 * request still running when its session closes).
 *
 * Every call goes through the same executor as a run (validation, typed input, time limit, serialization,
 * strategies, events); a failure is an `isError` result with the message. A call of a tool the caller's
 * list does not have is the spec's JSON-RPC error Invalid params (-32602), naming the closest tools and
 * what is available. A call that needs approval
 * runs only once the client's person approved it (see docs/mcp.md). Closing a 2025-11-25 session
 * releases the providers it discovered; its configured tools stay for a later connection. A schema module
 * registered after the server was made (`registerToolSchemas`) is read at its next request.
 *
 * @throws what a run throws at its start for the tools it offers and, with `discovery`, for every
 *   `@ToolProvider` class: DecoratorMisuseError for an explicit `@LlmTool({ parameters })` schema that is
 *   not valid JSON Schema, MissingToolSchemaError, StaleToolSchemaError; DuplicateToolNameError,
 *   InvalidToolProviderError, InvalidSettingError for its tools and limits.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { toolMiddleware, injectionStrategies, dispatch } = mcpServerParts(options);
  const settings = withSettings(DEFAULT_RUN_SETTINGS, {
    maxInjectedTools: options.maxInjectedTools,
    toolTimeoutMs: options.toolTimeoutMs,
    maxResultChars: options.maxResultChars,
    maxResultMediaBytes: options.maxResultMediaBytes,
  });
  // Made once per tool list, not per server (the HTTP entry makes one per request): see `serverTools`;
  // again at the next request once a schema module was registered since (a server that lives on).
  const current = currentServerTools(options);
  const sessionTools = new SessionTools(settings.maxInjectedTools);
  const session = () => sessionTools.of(current());
  const modern = () => (server.getNegotiatedProtocolVersion() ?? "") >= "2026";
  const listing = () =>
    modern() ? toolListResult(current().listed) : toolListResult(session().registry.all(), dispatch);
  const runId = newRunId(); // the server's one run: its events', and its run log file's
  const logged = serverRunLog(
    options.runLog,
    { id: runId, offered: () => listing().tools.map((t) => t.name) },
    (e) => events.emit(e),
  );
  const events = new RunEvents([...(options.observers ?? []), ...(logged ? [logged.observe] : [])], {
    runId,
  });
  const approvals = new McpApprovals(options.approval, current().keys);
  const sessionEnd = new SessionEnd(() => logged?.endSession());
  const server = new SessionServer(
    { name: options.name, version: options.version },
    {
      capabilities: { tools: { listChanged: true } },
      cacheHints: { "tools/list": { ttlMs: options.listTtlMs ?? DEFAULT_LIST_TTL_MS, cacheScope: "public" } },
    },
    () => {
      sessionTools.release();
      sessionEnd.close();
    },
  );
  server.setRequestHandler("tools/list", (request) => {
    // One page, no cursor handed out: any cursor is not one of ours, which the spec answers Invalid params.
    if (request.params?.cursor !== undefined)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        "Invalid cursor: this server lists all its tools in one page and hands out no cursor",
      );
    return listing();
  });

  let calls = 0;
  // A 2025-11-25 session's discovery: one for the session (this server), so the provider class names its
  // calls claim are the session's (two same-named classes no module told apart are refused across calls).
  const sessionDiscovery = options.discovery ? new ToolProviderStrategy() : undefined;
  const callTool = async (request: CallToolRequest, ctx: ServerContext): Promise<CallToolResult> => {
    await loadRuntimeDependencies(); // validation and class-transformer are not loaded at import
    const stateless = modern();
    const fork = stateless ? current().forCall() : undefined;
    const legacy = stateless ? undefined : session();
    const registry = fork?.registry ?? legacy!.registry;
    const strategies = fork
      ? [...(fork.discovery ? [fork.discovery] : []), ...injectionStrategies]
      : [...(sessionDiscovery ? [sessionDiscovery] : []), ...injectionStrategies];
    // One executor per call, so the call's own signal (the client cancelled, or left) stops it, and what
    // it injected is this call's alone.
    const fresh: AnyTool[] = [];
    const executor = new ToolCallExecutor({
      registry,
      events,
      settings,
      strategies,
      middleware: toolMiddleware,
      signal: ctx.mcpReq.signal,
      added: (tools) => fresh.push(...tools),
    });
    const requested = {
      toolCallId: String(ctx.mcpReq.id),
      toolName: request.params.name,
      input: request.params.arguments ?? {},
    };
    const dispatched = !stateless && dispatch && requested.toolName === DISPATCHER_TOOL;
    // A tool the session does not have (a typo, another session's provider, an evicted or released one)
    // is the spec's protocol error, Invalid params; a name `call_discovered_tool` passes is its argument.
    // The session's list was bound again since its client last heard (a registration): a call that ends
    // early says so too.
    const announceRemade = () => (legacy?.remade ? server.sendToolListChanged().catch(() => {}) : undefined);
    if (!dispatched && !registry.get(requested.toolName)) {
      await announceRemade();
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        executor.unknownTools.message(requested.toolName, registry.names()),
      );
    }
    const opened = dispatched ? unwrapDispatch(requested) : { call: requested };
    const iteration = ++calls;
    if ("problem" in opened) {
      const part = executor.refuse(requested, iteration, opened.problem);
      await announceRemade();
      return { content: [{ type: "text", text: resultText(part.output) }], isError: true };
    }
    const { call } = opened;
    const before = registry.size;
    let question: { message: string; requestState: string } | undefined;
    let text: string;
    let isError: boolean;
    let parts: ToolContentPart[] | undefined;
    try {
      const outcome = await executor.execute(call, iteration, [], async (resolved) => {
        const step = await approvals.step({
          resolved,
          answer: inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT),
          requestState: ctx.mcpReq.requestState(),
          canAsk: clientCanElicit(server, ctx),
          signal: ctx.mcpReq.signal,
        });
        const told = approvalEvent(step, resolved);
        if (told) events.emit(told);
        if (step.kind === "run") return step;
        if (step.kind === "ask") {
          question = step;
          return { kind: "hold" };
        }
        return {
          kind: "refuse",
          reason: "denied",
          text: step.text,
          cause: step.kind === "refuse" ? step.cause : undefined,
        };
      });
      if (outcome.held) return askForApproval(question!.message, question!.requestState);
      isError = outcome.part.output.type === "error-text";
      text = resultText(outcome.part.output);
      // Media (a provider tool's picture or file) goes out as MCP image/audio/resource blocks.
      if (outcome.part.output.type === "content") parts = partsOfOutput(outcome.part.output);
    } catch (error) {
      // Only cancellation or a failing strategy end a call this way. The call still ends for observers
      // and the run log (a `ToolFailed`), as every call that started does; a strategy's message may hold
      // anything (a credential), so the client reads only that it failed, observers what it threw.
      const cancelled = ctx.mcpReq.signal.aborted;
      const part = cancelled
        ? executor.fail(call, iteration, "cancelled", "The call was cancelled")
        : executor.fail(
            call,
            iteration,
            "threw",
            `The call of "${request.params.name}" failed in the server`,
            error,
          );
      isError = true;
      text = resultText(part.output);
    }
    if (!stateless) {
      if (fresh.length > 0 && dispatch) {
        text = `${text}\n\n${dispatchNotice(fresh)}`;
        parts?.push({ type: "text", text: dispatchNotice(fresh) });
      }
      if (fresh.length > 0 || registry.size !== before || legacy?.remade)
        await server.sendToolListChanged().catch(() => {});
    }
    return { content: parts ? mcpContentBlocks(parts) : [{ type: "text", text }], isError };
  };
  server.setRequestHandler("tools/call", (request, ctx) => sessionEnd.during(() => callTool(request, ctx)));
  return server;
}

/**
 * The SDK's server with the session's release composed into its close: an application's own `onclose`
 * does not replace it, so a closed session's providers are always let go.
 */
class SessionServer extends Server {
  constructor(
    info: ConstructorParameters<typeof Server>[0],
    options: ConstructorParameters<typeof Server>[1],
    private readonly release: () => void,
  ) {
    super(info, options);
  }

  protected override _onclose(): void {
    this.release();
    super._onclose();
  }
}

/**
 * The question for the client: an `input_required` result with a form elicitation (on 2025-11-25 the
 * SDK's shim sends it as `elicitation/create` and calls the handler again with the answer).
 */
function askForApproval(message: string, requestState: string): CallToolResult {
  const question = inputRequired({
    inputRequests: { [APPROVAL_INPUT]: inputRequired.elicit({ message, requestedSchema: approvalForm() }) },
    requestState,
  });
  // The SDK accepts this result from a tools/call handler; its handler type names the complete result only.
  return question as unknown as CallToolResult;
}

/** The run log of a server's calls (its file is written when the first call ends), if it has one. */
function serverRunLog(
  runLog: McpServerOptions["runLog"],
  run: Pick<RunLogStart, "id" | "offered">,
  emit: (event: RunEventInit) => void,
) {
  if (runLog === undefined) return undefined;
  const target = typeof runLog === "string" ? runLogTarget(runLog) : runLogTarget(runLog.dir, runLog);
  return startRunLog(target, {
    ...run,
    kind: "mcp",
    onFailure: (file, message) => emit({ type: "RunLogWarning", file, message }),
  });
}

/** Whether the client can show an elicitation form: its request's envelope (2026-07-28) or its initialize. */
function clientCanElicit(server: Server, ctx: ServerContext): boolean {
  const declared = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[
    CLIENT_CAPABILITIES_META_KEY
  ];
  const capabilities = (declared ?? server.getClientCapabilities()) as { elicitation?: unknown } | undefined;
  return capabilities?.elicitation !== undefined && capabilities.elicitation !== null;
}
