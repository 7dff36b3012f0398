/**
 * entity-tools/building-blocks: the parts an application does not need, for people writing their own MCP
 * server, backend (model adapter) or tool source on top of the library: binding tools to objects, the
 * handle codec and bindings, provider identity helpers, decorator metadata readers, the loop's ports,
 * token estimates and the text a conversation store keeps. The root entry (`entity-tools`) still exports
 * the older of these names for existing code; new code imports them from here.
 */

// Binding tools to objects, by hand
export { bindProviderTools, bindObjectTools } from "../tools/bind-tools.js";
export { isToolProvider } from "../tools/read-provider-id.js";
export { TOOL_NAME_PATTERN, isValidToolName } from "../tools/tool-name-rules.js";
export { getToolProviderOptions, getLlmTools, getToolParamDescriptions } from "../../decorators/index.js";
export type { ToolOrigin, HandleTarget } from "../tools/tool.js";
export type { ProviderKey } from "../tools/tool.js";
export type { ProviderRef } from "../tools/provider-binding.js";
export type { ProviderIdType, ProviderIdentity, ProviderToolIdentity } from "../tools/provider-identity.js";
export { instanceKeyOf } from "../tools/provider-identity.js";

// Entity handles
export { EntityHandleCodec, EntityHandleError } from "../tools/entity-handle.js";
export type { HandleKey, HandleIdentity, HandleReading, HandleProblem } from "../tools/entity-handle.js";
export { HandleBindings } from "../tools/entity-handle-bindings.js";
export type { RememberedProvider } from "../tools/entity-handle-bindings.js";
export { handleToolsOf, handleParameterOf, HANDLE_PARAMETER } from "../tools/handle-tools.js";
export { KeyRing, MIN_SIGNING_KEY_BYTES } from "../tools/signing-key.js";
export type { SigningKey, SigningKeys } from "../tools/signing-key.js";
export { SourceNameClaims } from "../tools/same-named-classes.js";
export type { HandleResolution } from "../tools/handle-tools.js";

// Discovery as a strategy, for servers that drive it themselves
export type {
  ProviderBinding,
  ProviderBindingOptions,
  RunDiscovery,
} from "../strategies/tool-provider-strategy.js";
export type { HandleDiscovery, HandleDiscoveryInit } from "../strategies/handle-discovery.js";

// The loop's ports and settings (for adapters of other backends and tool sources)
export type {
  ModelAdapter,
  ModelStepRequest,
  ModelStepResult,
  ModelStreamPart,
  ModelToolCall,
} from "../loop/ports/model-port.js";
export type {
  ConversationAdapter,
  Conversation,
  ConversationSetup,
  ConversationTurn,
  ConversationToolResult,
  ConversationModelUsage,
  NewToolsMode,
  FixedToolsMode,
} from "../loop/ports/conversation-port.js";
export type {
  DynamicToolSource,
  SourceListing,
  SkippedSourceTool,
} from "../loop/sources/tool-source-port.js";
export { DEFAULT_RUN_SETTINGS } from "../loop/settings/run-settings.js";
export type { RunSettings } from "../loop/settings/run-settings.js";

// A conversation store of your own: the text every store keeps, so that it keeps the stores' rules
export { snapshotText, snapshotFromText } from "../conversations/stored-snapshot-text.js";

// Token estimates
export { estimateDefinitionTokens } from "../tools/definition-tokens.js";

// Local HTTP servers (a chat page, a viewer): refuse a foreign Host or Origin (DNS rebinding)
export { localRequestGuard, LOCAL_HOST_NAMES } from "../local/local-request-guard.js";
export type { LocalRequestGuardOptions } from "../local/local-request-guard.js";
