/**
 * `entity-tools/codex`: the OpenAI Codex app-server as a backend, and the mapping between OpenAI-style
 * tool definitions and Codex's `dynamicTools`. A subpath of its own, because it spawns a child process.
 */
export { CodexAppServerAdapter } from "./codex-app-server-adapter.js";
export { DEFAULT_CODEX_ARGS } from "./codex-options.js";
export type { CodexAppServerOptions } from "./codex-options.js";
export { CodexAppServerError } from "./json-rpc-connection.js";
export { buildDynamicTools, buildToolCallDeltaFromDynamicRequest } from "./dynamic-tools.js";
export type {
  OpenAiFunctionTool,
  OpenAiToolChoice,
  DynamicToolSpec,
  DynamicToolRequest,
  ToolCallDelta,
} from "./dynamic-tools.js";
