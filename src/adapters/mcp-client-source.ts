import type { ParametersSchema } from "../../decorators/index.js";
import type { DynamicToolSource } from "../loop/tool-source-port.js";
import type { AnyTool } from "../tools/tool.js";
import { failureReason } from "../loop/execution/tool-failed.js";

/** A tool as an MCP server lists it. */
interface McpTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: { readonly type: "object"; readonly properties?: Record<string, unknown> };
}

/** One content block of an MCP tool result. */
interface McpContent {
  readonly type: string;
  readonly text?: string;
}

/**
 * What the runner needs of a connected MCP client: the shape of the official SDK's `Client`, written out
 * so that entity-tools' own types do not depend on the SDK being installed.
 */
export interface McpClientLike {
  listTools(
    params?: { cursor?: string },
    options?: { signal?: AbortSignal },
  ): Promise<{
    tools: readonly McpTool[];
    nextCursor?: string;
  }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal },
  ): Promise<Record<string, unknown>>;
  setNotificationHandler(schema: never, handler: () => void | Promise<void>): void;
  getServerVersion?(): { name: string } | undefined;
}

/**
 * An MCP server, reached through a connected SDK client, as a dynamic tool source: its tools are listed
 * (every page), each call goes to the server, and `notifications/tools/list_changed` marks the list for
 * re-listing between steps. A result with `isError` becomes an error result the model reads.
 *
 * It installs the client's handler for `notifications/tools/list_changed` (replacing one configured with
 * the client's `listChanged` option).
 */
export class McpClientToolSource implements DynamicToolSource {
  readonly label: string;
  private readonly listeners = new Set<() => void>();
  private opened = false;

  constructor(private readonly client: McpClientLike) {
    this.label = `mcp:${client.getServerVersion?.()?.name ?? "server"}`;
  }

  async open(): Promise<void> {
    if (this.opened) return;
    this.opened = true;
    // The SDK's schema object is what its client matches notifications by; loaded only when used.
    const { ToolListChangedNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
    this.client.setNotificationHandler(ToolListChangedNotificationSchema as never, () => {
      for (const listener of this.listeners) listener();
    });
  }

  async listTools(signal?: AbortSignal): Promise<readonly AnyTool[]> {
    const tools: AnyTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : undefined, { signal });
      tools.push(...page.tools.map((t) => this.toTool(t)));
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private toTool(tool: McpTool): AnyTool {
    return {
      name: tool.name,
      description: tool.description ?? tool.name,
      inputSchema: { properties: {}, ...tool.inputSchema } as ParametersSchema,
      execute: async (input, context) => {
        const result = await this.client.callTool(
          { name: tool.name, arguments: input as Record<string, unknown> },
          undefined,
          { signal: context.signal },
        );
        const text =
          textOf(result.content) ||
          (result.structuredContent ? JSON.stringify(result.structuredContent) : "");
        if (result.isError === true)
          throw new Error(failureReason(tool.name, text) || "the MCP server reported an error");
        return text;
      },
    };
  }
}

/** The text of MCP content blocks; other blocks (images, resources) are named, not inlined. */
function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return (content as McpContent[])
    .map((block) => (block.type === "text" ? (block.text ?? "") : `[${block.type} content]`))
    .join("\n");
}
