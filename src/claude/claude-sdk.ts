// The only file that knows the Claude Agent SDK's shapes: how it is loaded (with the MCP SDK schemas its
// in-process server answers with), the user message it takes, the result message that ends a turn, and the
// `_meta` of a tool call. Each is checked by behaviour when read,
// so an SDK release that changes one fails with a clear ClaudeAgentSdkError instead of a wrong answer.
import type {
  McpSdkServerConfigWithInstance,
  Options,
  Query,
  SDKUserMessage,
  SpawnedProcess,
  SpawnOptions,
} from "@anthropic-ai/claude-agent-sdk";

// The SDK's types the rest of this folder uses, so that this file is the only one that names the SDK.
export type { McpSdkServerConfigWithInstance, Options, Query, SDKUserMessage, SpawnedProcess, SpawnOptions };
export type { SettingSource } from "@anthropic-ai/claude-agent-sdk";
import type { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { TokenUsage } from "../loop/ports/model-port.js";
import { ClaudeAgentSdkError } from "./claude-agent-sdk-error.js";

export const SDK_PACKAGE = "@anthropic-ai/claude-agent-sdk";
const REPIN = `the ${SDK_PACKAGE} version this entity-tools release is tested with is 0.3.331; install that version`;

/** The parts of the SDK this backend calls. */
export interface ClaudeAgentSdk {
  query(params: { prompt: AsyncIterable<SDKUserMessage>; options: Options }): Query;
  createSdkMcpServer(options: { name: string; version?: string; tools?: [] }): McpSdkServerConfigWithInstance;
  /** The MCP SDK's request schemas (the SDK's peer), for handlers that serve our JSON Schemas verbatim. */
  readonly requests: {
    readonly listTools: typeof ListToolsRequestSchema;
    readonly callTool: typeof CallToolRequestSchema;
  };
}

/**
 * Loads the SDK (an optional peer: only this backend needs it).
 *
 * @throws ClaudeAgentSdkError when it is not installed or does not export what this backend calls
 */
export async function loadClaudeAgentSdk(): Promise<ClaudeAgentSdk> {
  const sdk = await load<Partial<ClaudeAgentSdk>>(SDK_PACKAGE, SDK_PACKAGE);
  const types = await load<{ ListToolsRequestSchema?: unknown; CallToolRequestSchema?: unknown }>(
    "@modelcontextprotocol/sdk/types.js",
    "@modelcontextprotocol/sdk",
  );
  if (typeof sdk.query !== "function" || typeof sdk.createSdkMcpServer !== "function")
    throw new ClaudeAgentSdkError(
      `${SDK_PACKAGE} does not export query() and createSdkMcpServer(): ${REPIN}.`,
    );
  if (!types.ListToolsRequestSchema || !types.CallToolRequestSchema)
    throw new ClaudeAgentSdkError(
      "@modelcontextprotocol/sdk/types.js has no ListToolsRequestSchema or CallToolRequestSchema: install the 1.x version the Claude Agent SDK asks for as its peer.",
    );
  return {
    query: sdk.query.bind(sdk),
    createSdkMcpServer: sdk.createSdkMcpServer.bind(sdk),
    requests: {
      listTools: types.ListToolsRequestSchema as typeof ListToolsRequestSchema,
      callTool: types.CallToolRequestSchema as typeof CallToolRequestSchema,
    },
  };
}

async function load<T>(specifier: string, packageName: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    throw new ClaudeAgentSdkError(
      `The Claude Agent SDK backend could not load ${specifier}: ${error instanceof Error ? error.message : String(error)}. Install it with \`npm install ${packageName}\`.`,
      "",
      { cause: error },
    );
  }
}

/** A user turn in the SDK's streaming-input form. */
export function userMessage(text: string): SDKUserMessage {
  return { type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" };
}

/** How a turn ended, read from the SDK's `result` message. */
export type TurnEnd = (
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string }
) & {
  /** The agent loop's tokens of this turn alone (the result's `usage`). */
  readonly usage: TokenUsage;
  /**
   * Every model call of the process so far, by model (the result's `modelUsage`): the loop's, its subagents'
   * and Claude Code's helper calls. Cumulative across the turns of one `query()`. Absent when the result
   * has none (a startup failure).
   */
  readonly models?: Readonly<Record<string, TokenUsage>>;
};

/**
 * The end of a turn when `message` is a `result` message, else `undefined` (the SDK's other messages —
 * system, assistant, user, progress — repeat what we already see through the tool calls). A successful
 * turn's text is its structured output as JSON when it has one (the `StructuredOutput` tool), else the
 * model's final text.
 *
 * @throws ClaudeAgentSdkError when a `result` message lacks what every release so far has put in it
 */
export function readTurnEnd(message: unknown): TurnEnd | undefined {
  if (!isRecord(message) || message.type !== "result") return undefined;
  const usage = readUsage(message.usage);
  const models = readModelUsage(message.modelUsage);
  const spent = { usage, ...(models ? { models } : {}) };
  if (message.subtype === "success" && message.is_error !== true) {
    if (message.structured_output !== undefined)
      return { ok: true, text: JSON.stringify(message.structured_output), ...spent };
    if (typeof message.result !== "string") throw changedShape("a successful result without its text");
    return { ok: true, text: message.result, ...spent };
  }
  const errors = Array.isArray(message.errors) ? message.errors.map(String) : [];
  const said =
    errors.length > 0 ? errors.join("; ") : typeof message.result === "string" ? message.result : "";
  return { ok: false, reason: `${String(message.subtype)}${said ? `: ${said}` : ""}`, ...spent };
}

/**
 * A `result` message's `modelUsage` as our token counts, by model; `undefined` when it has none. Its
 * cache writes and reads are part of the input, as in {@link readUsage}, and its thinking tokens (counted
 * in its output) are the reasoning tokens.
 */
function readModelUsage(modelUsage: unknown): Record<string, TokenUsage> | undefined {
  if (!isRecord(modelUsage)) return undefined;
  const models: Record<string, TokenUsage> = {};
  for (const [model, u] of Object.entries(modelUsage)) {
    if (!isRecord(u) || typeof u.inputTokens !== "number" || typeof u.outputTokens !== "number")
      throw changedShape(`a result whose modelUsage for ${model} has no token counts`);
    const [written, read, thinking] = [
      u.cacheCreationInputTokens,
      u.cacheReadInputTokens,
      u.thinkingTokens,
    ].map((n) => (typeof n === "number" ? n : 0));
    models[model] = {
      inputTokens: u.inputTokens + written! + read!,
      outputTokens: u.outputTokens,
      cachedInputTokens: read!,
      reasoningTokens: thinking!,
      ...cacheWrites(written!),
    };
  }
  return models;
}

/** A `result` message's token counts; Anthropic counts cached input apart, so it is added back in. */
function readUsage(usage: unknown): TokenUsage {
  if (!isRecord(usage) || typeof usage.input_tokens !== "number" || typeof usage.output_tokens !== "number")
    throw changedShape("a result without token usage");
  const [written, read] = [usage.cache_creation_input_tokens, usage.cache_read_input_tokens].map((n) =>
    typeof n === "number" ? n : 0,
  );
  return {
    inputTokens: usage.input_tokens + written! + read!,
    outputTokens: usage.output_tokens,
    cachedInputTokens: read!, // read from the cache: billed at the cached price
    reasoningTokens: 0, // Anthropic counts thinking as output and does not report it apart
    ...cacheWrites(written!), // written to the cache: billed at the cache-write price
  };
}

/** Cache writes as `TokenUsage` has them: only when there were some (see `addUsage`). */
function cacheWrites(written: number): Pick<TokenUsage, "cacheWriteInputTokens"> {
  return written > 0 ? { cacheWriteInputTokens: written } : {};
}

/**
 * The model Claude Code's agent loop runs on, when `message` is the `system` `init` message that names it
 * (the configured model, or Claude Code's default), else `undefined`.
 */
export function initModelOf(message: unknown): string | undefined {
  if (!isRecord(message) || message.type !== "system" || message.subtype !== "init") return undefined;
  return typeof message.model === "string" ? message.model : undefined;
}

/** The model's id of a tool call (Claude Code sends it in the MCP request's `_meta`), if it is there. */
export function toolUseIdOf(meta: unknown): string | undefined {
  const id = isRecord(meta) ? meta["claudecode/toolUseId"] : undefined;
  return typeof id === "string" ? id : undefined;
}

function changedShape(what: string): ClaudeAgentSdkError {
  return new ClaudeAgentSdkError(`The Claude Agent SDK sent ${what}; ${REPIN}.`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
