import type { ParametersSchema } from "../../decorators/index.js";
import type {
  DynamicToolSource,
  SkippedSourceTool,
  SourceListing,
} from "../loop/sources/tool-source-port.js";
import { failureReason } from "../loop/execution/tool-failed.js";
import { untrustedSchemaProblem } from "../schema/untrusted-schema.js";
import type { AnyTool } from "../tools/tool.js";
import { plainToolName } from "../tools/tool-names.js";
import { mcpResultContent, mcpResultText } from "./mcp-result-content.js";
import { callToolAsTask, NO_TASK_API, requiresTask, taskApiOf } from "./mcp-task-call.js";

/** A tool as an MCP server lists it (the part of the SDK's `Tool` the runner reads). */
export interface McpListedTool {
  /** The tool's name on the server. */
  readonly name: string;
  /** What the model reads about the tool. */
  readonly description?: string | undefined;
  /** The JSON Schema of the tool's arguments: an object schema. */
  readonly inputSchema: {
    readonly type: "object";
    readonly properties?: Record<string, unknown> | undefined;
  };
  /** `taskSupport: "required"`: the tool runs only as an MCP task. */
  readonly execution?: { readonly taskSupport?: unknown } | undefined;
}

/** One page of an MCP server's `tools/list`, as {@link McpClientLike.listTools} returns it. */
export interface McpToolPage {
  /** The tools of this page. */
  readonly tools: readonly McpListedTool[];
  /** Where the next page starts (passed back as `cursor`); absent on the last page. */
  readonly nextCursor?: string | undefined;
  /** 2026-07-28: how long, in milliseconds, the list stays valid. */
  readonly ttlMs?: number | undefined;
}

/**
 * What the runner needs of a connected MCP client: the shape shared by the official SDK's v1 `Client`
 * (`@modelcontextprotocol/sdk`, 2025-11-25) and v2 `Client` (`@modelcontextprotocol/client`, 2026-07-28
 * and 2025-11-25), written out so that entity-tools' own types do not depend on either being installed.
 */
export interface McpClientLike {
  /** One page of the server's `tools/list`. */
  listTools(params?: { cursor?: string }, options?: { signal?: AbortSignal }): Promise<McpToolPage>;
  /** v1: `(params, resultSchema?, options?)`; v2: `(params, options?)`. */
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    ...rest: never[]
  ): Promise<Record<string, unknown>>;
  /** v1 takes the notification's schema, v2 its method name. */
  setNotificationHandler(schemaOrMethod: never, handler: () => void | Promise<void>): void;
  /** The server's name, for labels (`mcp:<name>`). */
  getServerVersion?(): { name: string } | undefined;
  /** The protocol revision agreed with the server. */
  getNegotiatedProtocolVersion?(): string | undefined;
  /** v2 only: `"modern"` (2026-07-28) or `"legacy"` (2025-era). */
  getProtocolEra?(): string | undefined;
  /** v2 only: opens a `subscriptions/listen` stream (2026-07-28). */
  /** 2026-07-28: a `subscriptions/listen` stream of change announcements; `close` ends it. */
  listen?(filter: { toolsListChanged?: boolean }): Promise<{
    /** Ends the stream. */
    close(): Promise<void>;
  }>;
  /** What the server said it can do (whether it announces tool-list changes). */
  getServerCapabilities?(): { tools?: { listChanged?: boolean | undefined } | undefined } | undefined;
  /** v1 keeps the negotiated revision on its HTTP transport (`protocolVersion`). */
  readonly transport?: object | undefined;
}

/** Options of `runner.withMcpClient(client, options)`. */
export interface McpClientOptions {
  /**
   * Put before every tool name of this server (`<prefix>_<name>`), so two servers offering one name can
   * join the same run. Default: none.
   */
  readonly prefix?: string | undefined;
}

/** Most `tools/list` pages one listing reads: a server that always sends a `nextCursor` is cut here. */
export const MAX_TOOL_PAGES = 100;
/** Longest one listing (all its pages) may take, in milliseconds. */
export const TOOL_LIST_TIMEOUT_MS = 30_000;

const LIST_CHANGED = "notifications/tools/list_changed";

/**
 * Per client, the listeners of its `list_changed` notifications: the client's handler is installed once
 * and fans out, so two runners (or two runs) on one client never take the notification from each other.
 */
const fanOuts = new WeakMap<McpClientLike, { listeners: Set<() => void>; ready: Promise<void> }>();

/**
 * An MCP server, reached through a connected SDK client (v1 or v2), as a dynamic tool source:
 *
 * - its tools are listed (every page, at most {@link MAX_TOOL_PAGES} and {@link TOOL_LIST_TIMEOUT_MS}),
 *   each under a name that obeys the naming contract (`vault.open` → `vault_open_<hash>`, with the
 *   optional prefix), and a call goes to the server under the server's own name;
 * - a tool whose schema cannot be compiled, or holds a pattern that could backtrack exponentially, is
 *   skipped and reported by name, the others stay;
 * - `notifications/tools/list_changed` marks the list for re-listing between steps: on 2026-07-28 through
 *   a `subscriptions/listen` stream this source opens (once per client), on 2025-11-25 as the server sends
 *   it; a list whose `ttlMs` passed is re-listed too;
 * - a result's images and audio reach the model as parts, resource links and embedded resources as text
 *   (binary resources as parts) — see `mcpResultContent`; a result with `isError` becomes an error result;
 * - a tool that runs only as a task (`execution.taskSupport: "required"`) is called through the client's
 *   task API with the call's signal; a client without one does not offer it, and says why (skipped).
 */
export class McpClientToolSource implements DynamicToolSource {
  private readonly listeners = new Set<() => void>();
  private validUntil = Number.POSITIVE_INFINITY;
  private readonly relay = () => this.listeners.forEach((listener) => listener());

  constructor(
    private readonly client: McpClientLike,
    private readonly options: McpClientOptions = {},
  ) {}

  /** `mcp:<server name>`, with the negotiated protocol revision once connected: `mcp:shop (2026-07-28)`. */
  get label(): string {
    const version = this.protocolVersion;
    return `mcp:${this.client.getServerVersion?.()?.name ?? "server"}${version ? ` (${version})` : ""}`;
  }

  /** The protocol revision the client negotiated with the server. */
  get protocolVersion(): string | undefined {
    // v2 reports it; v1 keeps it on its HTTP transport only.
    const transport = this.client.transport as { protocolVersion?: unknown } | undefined;
    const v1 = typeof transport?.protocolVersion === "string" ? transport.protocolVersion : undefined;
    return this.client.getNegotiatedProtocolVersion?.() ?? v1;
  }

  async open(): Promise<void> {
    let fanOut = fanOuts.get(this.client);
    if (!fanOut) {
      const listeners = new Set<() => void>();
      fanOut = { listeners, ready: subscribe(this.client, () => listeners.forEach((l) => l())) };
      fanOuts.set(this.client, fanOut);
    }
    fanOut.listeners.add(this.relay);
    await fanOut.ready;
  }

  async listTools(signal?: AbortSignal): Promise<SourceListing> {
    const pages = await withDeadline(this.pages(signal), TOOL_LIST_TIMEOUT_MS, this.label);
    const tools: AnyTool[] = [];
    const skipped: SkippedSourceTool[] = [];
    for (const listed of pages.tools) {
      // Schemas are validated with ajv's default dialect, as ours are: the declared one (2026-07-28
      // servers declare JSON Schema 2020-12) is dropped, as `$schema` is before anything reaches a model.
      const { $schema: _dialect, ...declared } = listed.inputSchema as Record<string, unknown>;
      const schema: Record<string, unknown> = { properties: {}, ...declared };
      schema.properties ??= {}; // `properties: undefined` (a client of the user's own) is a missing one
      const inputSchema = schema as McpListedTool["inputSchema"];
      const tool = { ...listed, inputSchema };
      // Checked, not compiled: the validator is compiled when the tool is first called (issue 46).
      const problem =
        untrustedSchemaProblem(inputSchema) ??
        (requiresTask(tool) && !taskApiOf(this.client) ? NO_TASK_API : undefined);
      if (problem) skipped.push({ toolName: tool.name, reason: problem });
      else tools.push(this.toTool(tool));
    }
    this.validUntil = pages.ttlMs !== undefined && pages.ttlMs > 0 ? Date.now() + pages.ttlMs : Infinity;
    return { tools, skipped };
  }

  expired(): boolean {
    return Date.now() >= this.validUntil;
  }

  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async pages(signal: AbortSignal | undefined): Promise<McpToolPage> {
    const tools: McpListedTool[] = [];
    let ttlMs: number | undefined;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      // v2 keeps its own response cache: this source decides when to list again (ttlMs, list_changed).
      const listed = await this.client.listTools(cursor ? { cursor } : undefined, {
        signal,
        cacheMode: "refresh",
      } as { signal?: AbortSignal });
      // A loop, not push(...page): a page of tens of thousands of tools would overflow the call stack.
      for (const tool of listed.tools) tools.push(tool);
      ttlMs = ttlMs === undefined ? listed.ttlMs : Math.min(ttlMs, listed.ttlMs ?? ttlMs);
      cursor = listed.nextCursor;
      if (!cursor) return { tools, ttlMs };
    }
    throw new Error(`the server still had more tools after ${MAX_TOOL_PAGES} pages of tools/list`);
  }

  private toTool(tool: McpListedTool): AnyTool {
    const prefix = this.options.prefix;
    const serverName = tool.name;
    return {
      name: plainToolName(prefix ? `${prefix}_${serverName}` : serverName),
      description: tool.description ?? serverName,
      inputSchema: tool.inputSchema as ParametersSchema, // the schema checked (and marked) by listTools
      execute: async (input, context) => {
        const params = { name: serverName, arguments: input as Record<string, unknown> };
        const options = { signal: context.signal };
        const tasks = requiresTask(tool) ? taskApiOf(this.client) : undefined;
        // v2's callTool takes (params, options); v1's (params, resultSchema, options).
        const result = tasks
          ? await callToolAsTask(tasks, params, context.signal)
          : isV2(this.client)
            ? await this.client.callTool(params, options as never)
            : await this.client.callTool(params, undefined as never, options as never);
        if (result.isError === true)
          throw new Error(
            failureReason(serverName, mcpResultText(result.content)) || "the MCP server reported an error",
          );
        return mcpResultContent(result.content, result.structuredContent);
      },
    };
  }
}

function isV2(client: McpClientLike): boolean {
  return typeof client.getProtocolEra === "function";
}

/**
 * Installs the client's one `list_changed` handler; on a 2026-07-28 connection also opens the
 * `subscriptions/listen` stream that carries it (when the server offers tool-list changes).
 */
async function subscribe(client: McpClientLike, notify: () => void): Promise<void> {
  if (isV2(client)) {
    client.setNotificationHandler(LIST_CHANGED as never, notify);
    const announces = client.getServerCapabilities?.()?.tools?.listChanged === true;
    if (client.getProtocolEra?.() === "modern" && announces && client.listen)
      await client.listen({ toolsListChanged: true });
    return;
  }
  // The v1 SDK matches notifications by its schema object; loaded only when a v1 client is used.
  const { ToolListChangedNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
  client.setNotificationHandler(ToolListChangedNotificationSchema as never, notify);
}

async function withDeadline<T>(work: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${label} did not finish listing its tools within ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
