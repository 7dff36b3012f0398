// The package's errors, listed name by name (src/index.ts exports them all): every one extends
// EntityToolsError and has a static isInstance(). Their own files sit with the concept that throws them.
export { EntityToolsError, InvalidSettingError } from "../errors/entity-tools-error.js";
export {
  ToolLoopError,
  MaxIterationsExceededError,
  ToolNotFoundError,
  OutputValidationError,
  ToolLoopAbortedError,
  ModelCallError,
  StrategyError,
} from "../loop/errors/errors.js";
export {
  InvalidToolProviderError,
  MissingToolSchemaError,
  StaleToolSchemaError,
  ToolSchemaError,
  InvalidToolNameError,
} from "../tools/errors.js";
export { DuplicateToolNameError, InvalidToolSourceError } from "../tools/tool-sources.js";
export { MissingOutputSchemaError } from "../runner/output-target.js";
export { ExpansionLimitError } from "../runner/expansion-limit-error.js";
export { PromptTemplateError } from "../disclosure/prompt-template-error.js";
export { ToolSourceClashError } from "../runner/tool-source-clash-error.js";
export { ToolSourceError } from "../loop/sources/tool-source-error.js";
export { ApprovalRequiredError } from "../runner/approval-required-error.js";
export { ApprovalRuleError } from "../loop/execution/approval-rule-error.js";
export { SnapshotError } from "../loop/snapshot/snapshot-error.js";
export { UnsupportedModelSettingError } from "../adapters/model-settings.js";
export { TelemetryUnavailableError } from "../telemetry/telemetry-unavailable-error.js";
export { RunLogError } from "../run-log/run-log-error.js";
export { SnapshotIntegrityError } from "../loop/snapshot/snapshot-integrity-error.js";
export { ConversationMismatchError } from "../loop/snapshot/conversation-mismatch-error.js";
export type { SnapshotIntegrityProblem } from "../loop/snapshot/snapshot-integrity-error.js";
export {
  ConversationConflictError,
  ConversationStoreUnavailableError,
  ConversationTooLargeError,
  InvalidConversationIdError,
  StoredConversationUnreadableError,
} from "../conversations/conversation-store-errors.js";
