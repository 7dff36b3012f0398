import { mcpContentBlocks } from "../loop/results/mcp-content-blocks.js";
import type { AnyTool } from "../tools/tool.js";
import type { ToolContentPart } from "../tools/tool-content.js";
import { fittedToolName } from "../tools/tool-names.js";
import { MAX_TOOL_NAME_LENGTH } from "../tools/tool-name-rules.js";
import { toolUseIdOf, type ClaudeAgentSdk, type McpSdkServerConfigWithInstance } from "./claude-sdk.js";

/** One call as the server hands it over: our tool name (not the model's), its input, the model's call id. */
export interface ServedCall {
  readonly toolName: string;
  readonly input: unknown;
  readonly toolCallId: string;
}

/** What the model reads back for a call. */
export interface ServedResult {
  readonly text: string;
  /** The result with its media (images), when it has any: sent as MCP content blocks. */
  readonly parts?: readonly ToolContentPart[];
  readonly isError: boolean;
}

/** The media Claude Code's model takes from an MCP tool result: images (its Messages API's image types). */
export const CLAUDE_RESULT_MEDIA_TYPES: readonly string[] = [
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
];

/**
 * Our tools as Claude Code's in-process MCP server (`createSdkMcpServer`), answering `tools/list` and
 * `tools/call` itself so our JSON Schemas go out verbatim (the SDK's own `tool()` takes zod shapes).
 *
 * Claude Code offers a tool as `mcp__<server>__<tool>`; a name that would make that longer than 64
 * characters is shortened here with our naming rule (a hash keeps names apart), and every call is handed
 * over under our own name, so results, events, history and snapshots never see the model's form.
 *
 * The tool set can change while the process runs: {@link offer} announces `tools/list_changed` and
 * resolves once Claude Code has listed the tools again, which is when its next model request carries them.
 */
export class ClaudeToolServer {
  readonly config: McpSdkServerConfigWithInstance;
  private readonly maxNameLength: number;
  private byWireName = new Map<string, AnyTool>();
  /** Resolved once a `tools/list` answered after they were registered has gone out. */
  private listed: (() => void)[] = [];

  constructor(
    sdk: ClaudeAgentSdk,
    readonly name: string,
    tools: readonly AnyTool[],
    call: (call: ServedCall) => Promise<ServedResult>,
  ) {
    this.maxNameLength = MAX_TOOL_NAME_LENGTH - `mcp__${name}__`.length;
    this.setTools(tools);
    // No tools through the SDK's `tool()`: the server's own handlers below serve them.
    this.config = sdk.createSdkMcpServer({ name, version: "1.0.0", tools: [] });
    const server = this.config.instance.server;
    server.registerCapabilities({ tools: { listChanged: true } });
    server.setRequestHandler(sdk.requests.listTools, () => {
      const waiting = this.listed;
      this.listed = [];
      // The answer is sent once this handler's promise settles; the waiters hear of it after that.
      setImmediate(() => waiting.forEach((resolve) => resolve()));
      return {
        tools: [...this.byWireName].map(([wireName, t]) => ({
          name: wireName,
          description: t.description,
          inputSchema: t.inputSchema as { type: "object" },
        })),
      };
    });
    server.setRequestHandler(sdk.requests.callTool, async (request, extra) => {
      const wireName = request.params.name;
      const result = await call({
        // An unknown name goes on as it is: the run answers it with its did-you-mean error.
        toolName: this.byWireName.get(wireName)?.name ?? wireName,
        input: request.params.arguments ?? {},
        toolCallId: toolUseIdOf(request.params._meta) ?? `mcp-${String(extra.requestId)}`,
      });
      // Claude Code hands MCP image blocks to its model as images.
      const content = result.parts
        ? mcpContentBlocks(result.parts)
        : [{ type: "text" as const, text: result.text }];
      return { content, isError: result.isError };
    });
  }

  /** The name Claude Code's model sees for one of our tools. */
  modelName(toolName: string): string {
    return `mcp__${this.name}__${fittedToolName(toolName, this.maxNameLength)}`;
  }

  /**
   * Offers `tools` from now on: resolves `true` once Claude Code has listed them again, `false` when it
   * did not within `timeoutMs`.
   */
  async offer(tools: readonly AnyTool[], timeoutMs: number): Promise<boolean> {
    this.setTools(tools);
    let timer: NodeJS.Timeout | undefined;
    const listed = new Promise<boolean>((resolve) => {
      this.listed.push(() => resolve(true));
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      await this.config.instance.server.sendToolListChanged();
      return await listed;
    } catch {
      return false; // the process is gone or going: the run goes on in a new one
    } finally {
      clearTimeout(timer);
    }
  }

  private setTools(tools: readonly AnyTool[]): void {
    this.byWireName = new Map(tools.map((t) => [fittedToolName(t.name, this.maxNameLength), t]));
  }
}
