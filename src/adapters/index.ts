export type { ModelAdapter, ModelStepRequest, ModelStepResult, ModelToolCall } from "./model-adapter.js";
export { AiSdkAdapter } from "./ai-sdk-adapter.js";
export type { AiSdkAdapterSettings } from "./ai-sdk-adapter.js";
export type {
  ConversationAdapter,
  Conversation,
  ConversationSetup,
  ConversationTurn,
  ConversationToolResult,
  NewToolsMode,
} from "./conversation-adapter.js";
export { isConversationAdapter } from "./conversation-adapter.js";
export { CodexAppServerAdapter, DEFAULT_CODEX_ARGS } from "./codex/codex-app-server-adapter.js";
export type { CodexAppServerOptions } from "./codex/codex-app-server-adapter.js";
export { CodexAppServerError } from "./codex/json-rpc-connection.js";
export { buildDynamicTools, buildToolCallDeltaFromDynamicRequest } from "./codex/dynamic-tools.js";
export type {
  OpenAiFunctionTool,
  OpenAiToolChoice,
  DynamicToolSpec,
  DynamicToolRequest,
  ToolCallDelta,
} from "./codex/dynamic-tools.js";
