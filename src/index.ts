/**
 * entity-tools: tools that grow during an LLM conversation. This is the package's public surface, listed
 * name by name (its errors in `public/errors.ts`); anything not here is internal. The Codex backend is `entity-tools/codex` and the testing
 * kit `entity-tools/testing`, so importing this module never loads `node:child_process`.
 */
import "../decorators/reflect-metadata.cjs";

// Decorators
export {
  ToolProvider,
  LlmTool,
  ToolParam,
  Hidden,
  getToolProviderOptions,
  getLlmTools,
  getToolParamDescriptions,
  DecoratorMisuseError,
} from "../decorators/index.js";
export type {
  ToolProviderOptions,
  ResolvedToolProviderOptions,
  LlmToolOptions,
  LlmToolMetadata,
  LlmToolDecorator,
  ToolProviderDecorator,
  HiddenDecorator,
  ParametersSchema,
} from "../decorators/index.js";

// Errors: every one extends EntityToolsError and has a static isInstance() (listed in public/errors.ts)
export * from "./public/errors.js";

// Tools
export { defineTool } from "./tools/define-tool.js";
export type { ToolDefinition } from "./tools/define-tool.js";
export { ToolContent, isToolContent, toolContent } from "./tools/tool-content.js";
export type {
  ToolContentItem,
  ToolContentPart,
  ToolMediaPart,
  ToolTextPart,
  ToolValueItem,
} from "./tools/tool-content.js";
export { toolAudio, toolFile, toolImage } from "./tools/tool-media.js";
export type { MediaSource, ToolFileOptions } from "./tools/tool-media.js";
export type { ToolResultMediaTypes } from "./loop/results/media-types.js";
export type {
  Tool,
  AnyTool,
  ToolExecutionContext,
  ToolInputSchema,
  ToolOrigin,
  HandleTarget,
} from "./tools/tool.js";
export type { ToolSource } from "./tools/tool-sources.js";
export { bindProviderTools, bindObjectTools } from "./tools/bind-tools.js";
export { isToolProvider } from "./tools/read-provider-id.js";
export { TOOL_NAME_PATTERN, isValidToolName } from "./tools/tool-name-rules.js";
export { EntityHandleCodec, EntityHandleError } from "./tools/entity-handle.js";
export type { HandleKey, HandleIdentity, HandleReading, HandleProblem } from "./tools/entity-handle.js";
export type { SigningKey, SigningKeys } from "./tools/signing-key.js";
export { HandleBindings } from "./tools/entity-handle-bindings.js";
export type { RememberedProvider } from "./tools/entity-handle-bindings.js";
export { handleToolsOf, handleParameterOf, HANDLE_PARAMETER } from "./tools/handle-tools.js";
export type { HandleResolution } from "./tools/handle-tools.js";

// Schemas
export { registerToolSchemas } from "./schema/schema-store.js";
export type {
  GeneratedSchemas,
  GeneratedToolSchema,
  GeneratedClass,
  InputType,
  UnionMember,
  DiscriminatorValue,
} from "./schema/generated-schemas.js";
export type { JsonSchema } from "./schema/json-schema.js";

// Events
export type {
  ToolLoopEvent,
  ToolLoopObserver,
  ToolFailureReason,
  RunStartedEvent,
  RunFinishedEvent,
  ToolLoopIterationEvent,
  ModelRespondedEvent,
  ModelWarningEvent,
  ToolCallStartedEvent,
  ToolInvokedEvent,
  ToolFailedEvent,
  ToolProviderDiscoveredEvent,
  ToolsInjectedEvent,
  ToolsRemovedEvent,
  SourceToolSkippedEvent,
  SourceToolChangedEvent,
  OutputRejectedEvent,
  VisibilityExpandedEvent,
  ConversationRestartedEvent,
  DynamicToolsFallbackEvent,
  RunRestartedEvent,
  RestartCause,
  RunEvent,
} from "./events/tool-loop-event.js";
export type { RunLogWarningEvent } from "./events/run-log-warning-event.js";
export type { ApprovalRequestedEvent, ApprovalDecidedEvent } from "./events/approval-events.js";
export type { RunCounters } from "./events/run-counters.js";

// Usage, cost, telemetry and the debug log
export type { PriceTable, Pricing } from "./events/pricing.js";
export type {
  RunCost,
  StepCost,
  ProviderCost,
  SnapshotCost,
  SnapshotProviderCost,
} from "./events/run-cost.js";
export type { DebugLogger } from "./events/debug-log.js";
export type { TelemetryOptions, TelemetryTracer } from "./telemetry/telemetry-options.js";
export { estimateDefinitionTokens } from "./tools/definition-tokens.js";

// The run log (withRunLog) and reading it back
export type { RunLogOptions, RunLogTarget, ResolvedRunLogTarget } from "./run-log/run-log-options.js";
export { DEFAULT_RUN_LOG_MAX_BYTES } from "./run-log/run-log-options.js";
export { RUN_LOG_FORMAT, RUN_LOG_VERSION } from "./run-log/run-log-format.js";
export type {
  RunLogKind,
  RunLogRecord,
  RunHeaderRecord,
  StepRecord,
  ResponseRecord,
  CallRecord,
  MediaRecord,
  DiscoveredRecord,
  AddedRecord,
  RemovedRecord,
  RestartRecord,
  ExpandedRecord,
  ApprovalAskedRecord,
  ApprovalDecidedRecord,
  NoteRecord,
  CutRecord,
  CostsRecord,
  EndRecord,
} from "./run-log/run-log-format.js";
export type { CutValue, CutValues, MayHoldCutValues } from "./run-log/cut-value.js";
export { readRunLog, type RunLogRead, type RunLogProblem } from "./run-log/read-run-log.js";
export { runView } from "./run-log/run-log-steps.js";
export type { RunView, StepView, ToolChange, ToolChangeCause } from "./run-log/run-log-steps.js";

// Strategies
export { ToolProviderStrategy } from "./strategies/tool-provider-strategy.js";
export type {
  ProviderBinding,
  ProviderBindingOptions,
  RunDiscovery,
} from "./strategies/tool-provider-strategy.js";
export type { DiscoveredProvider } from "./strategies/tool-injection-strategy.js";
export type { ToolDelivery } from "./tools/tool-delivery.js";
export type { HandleDiscovery, HandleDiscoveryInit } from "./strategies/handle-discovery.js";
export type {
  ToolInjectionStrategy,
  ToolInjectionContext,
  ToolInjectionResult,
  LastToolCall,
  RestartRequest,
} from "./strategies/tool-injection-strategy.js";
export type { ToolBudgetCheck } from "./tools/tool-budget.js";

// The loop's ports and settings (for adapters of other backends)
export type {
  ModelAdapter,
  ModelStepRequest,
  ModelStepResult,
  ModelStreamPart,
  ModelToolCall,
  ReportedTokenUsage,
  TokenUsage,
} from "./loop/ports/model-port.js";
export type {
  ConversationAdapter,
  Conversation,
  ConversationSetup,
  ConversationTurn,
  ConversationToolResult,
  ConversationModelUsage,
  NewToolsMode,
  FixedToolsMode,
  ConversationNewTools,
} from "./loop/ports/conversation-port.js";
export type { RunSettings } from "./loop/settings/run-settings.js";
export type { DynamicToolSource, SourceListing, SkippedSourceTool } from "./loop/sources/tool-source-port.js";
export type {
  McpClientLike,
  McpClientOptions,
  McpToolPage,
  McpListedTool,
} from "./adapters/mcp-client-source.js";
export { DEFAULT_RUN_SETTINGS } from "./loop/settings/run-settings.js";
export type { ToolMiddleware, ToolCallInfo } from "./loop/execution/tool-middleware.js";

// The AI SDK backend
export { AiSdkAdapter } from "./adapters/ai-sdk-adapter.js";
export type { AiSdkAdapterSettings } from "./adapters/ai-sdk-adapter.js";

// The runner
export { PromptRunner } from "./runner/prompt-runner.js";
export { RunnerLimits } from "./runner/runner-limits.js";
export {
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_MAX_INJECTED_TOOLS,
  DEFAULT_MAX_EXPANSIONS,
} from "./runner/runner-options.js";
export type {
  PromptRunnerOptions,
  DiscoveryOptions,
  RunOptions,
  ResumeOptions,
  RunnerConfig,
} from "./runner/runner-options.js";
export type { ProviderResolver } from "./loop/run/restore-tools.js";
export type { PendingApproval, ApprovalDecision, ApprovalPredicate } from "./loop/execution/approval-gate.js";
export type { ApprovalRuleName, ApprovalRuleBreak } from "./loop/execution/approval-rule-error.js";
/** A provider tool's identity (class source name, typed id, method), as approvals and snapshots name it. */
export type { ProviderIdentity, ProviderToolIdentity, ProviderIdType } from "./tools/provider-identity.js";
export type { ProviderRef } from "./tools/provider-binding.js";
export type { ProviderKey } from "./tools/tool.js";
export { SNAPSHOT_FORMAT } from "./loop/snapshot/run-snapshot.js";
export type { RunSnapshot, SnapshotTool, PausedCalls } from "./loop/snapshot/run-snapshot.js";
export type { SnapshotKey } from "./loop/snapshot/snapshot-codec.js";

// Conversations
export { beginConversationTurn, DEFAULT_TURN_LEASE_MS } from "./conversations/conversation-store-port.js";
export type {
  ConversationTurnOptions,
  ConversationStore,
  StoredConversationTurn,
  StoredConversation,
} from "./conversations/conversation-store-port.js";
export { FileConversationStore } from "./conversations/file-conversation-store.js";
export type { FileConversationStoreOptions } from "./conversations/file-conversation-store.js";
export { DEFAULT_MAX_SNAPSHOT_BYTES } from "./conversations/stored-snapshot-text.js";
export type {
  AwaitingApprovalRun,
  CompletedRun,
  RunOutcomeFields,
  ToolLoopResult,
} from "./runner/tool-loop-result.js";
export { RunStream } from "./runner/run-stream.js";
export type { RunStreamPart, UIStreamOptions } from "./runner/run-stream.js";
export { StreamAlreadyReadError, StreamPartsDroppedError } from "./runner/stream-read-error.js";
export type { OutputTarget } from "./runner/output-target.js";
export type { TemplatePrompt } from "./runner/execute-run.js";

// Progressive disclosure
export { SectionVisibility } from "./disclosure/section-visibility.js";
export type { PromptParams, VisibilityRule, VisibilityOverrides } from "./disclosure/section-visibility.js";
export { MarkdownSection, type MarkdownSectionOptions } from "./disclosure/markdown-section.js";
export { PromptTemplate } from "./disclosure/prompt-template.js";
export type { PromptTemplateOptions, VisibilityOf } from "./disclosure/prompt-template.js";
export type { SectionNode } from "./disclosure/section-node.js";
export type { VisibilitySnapshot } from "./disclosure/section-visibility.js";
export { VisibilityExpansionRequired } from "./disclosure/visibility-expansion-required.js";
export { READ_SECTION } from "./disclosure/disclosure-session.js";
