export { FakePromptRunner } from "./fake-prompt-runner.js";
export type { StubbedReturn } from "./fake-prompt-runner.js";
export { ScriptedLanguageModel } from "./scripted-language-model.js";
export { ScriptError } from "./script-error.js";
export { UnmetExpectationsError } from "./unmet-expectations-error.js";
export type { ToolNameMatcher, ScriptedRequest } from "./scripted-language-model.js";
export { generateResult } from "./generate-result.js";
export type { ScriptedTurn, ScriptedToolCall } from "./generate-result.js";
export { RunRecorder } from "./run-recorder.js";
export type { RecordedStep, RecordedCall, RecordedDiscovery, RecordedWaitingCall } from "./run-recorder.js";
export { startAnthropicMessagesMock, MESSAGES_MOCK_USAGE } from "./anthropic-messages-mock.js";
export type { AnthropicMessagesMock, MessagesRequest } from "./anthropic-messages-mock.js";
export { InMemoryConversationStore } from "./in-memory-conversation-store.js";
export type { InMemoryConversationStoreOptions } from "./in-memory-conversation-store.js";
export { recordModel } from "./replay/record-model.js";
export { ReplayLanguageModel } from "./replay/replay-language-model.js";
export type { ReplayOptions, OnReplayMismatch } from "./replay/recorded-step.js";
export { readCassette, parseCassette } from "./replay/cassette-file.js";
export { CASSETTE_SCHEMA } from "./replay/cassette-schema.js";
export { CASSETTE_FORMAT, CASSETTE_VERSION } from "./replay/cassette.js";
export type {
  Cassette,
  CassetteModel,
  CassetteStep,
  CassetteResponse,
  CassetteJson,
} from "./replay/cassette.js";
export { CassetteError, ReplayMismatchError } from "./replay/cassette-errors.js";
export type { ReplayProblem } from "./replay/cassette-errors.js";
export { startOpenAiResponsesMock, RESPONSES_MOCK_USAGE } from "./openai-responses-mock.js";
export type { OpenAiResponsesMock, ResponsesRequest } from "./openai-responses-mock.js";
export { startOpenAiChatMock } from "./openai-chat-mock.js";
export type { OpenAiChatMock, ChatCompletionsRequest } from "./openai-chat-mock.js";
export type { OpenAiMockRequest } from "./openai-mock-server.js";
export type { MockReply, MockErrorReply, RequestHeaders } from "./scripted-api-server.js";
export { scoreToolUse } from "./scoring/score-tool-use.js";
export type { ScoreToolUse } from "./scoring/score-tool-use.js";
export type {
  ScoreToolUseOptions,
  ToolUseScore,
  ToolUseVerdict,
  ToolUseVerdictKind,
} from "./scoring/tool-use-verdict.js";
export type { ToolUseSummary, ToolUseVerdictCounts } from "./scoring/tool-use-summary.js";
export type { ExpectedToolCall, ExpectedCall, ExpectedProvider } from "./scoring/expected-call.js";
export type { ToolUseRun, ToolUseStep, ToolUseCall, ToolBinding } from "./scoring/tool-use-run.js";
export type { ToolUseSource } from "./scoring/tool-use-source.js";
export type { ScoredResult } from "./scoring/result-run.js";
export { formatToolUseScore, formatToolUseSummary } from "./scoring/format-tool-use.js";
export { expectToolUse, toolUseMatchers, ToolUseExpectationError } from "./scoring/tool-use-matchers.js";
export type {
  ToolUseMatchers,
  ToolUseMatcherContext,
  ToolUseMatcherResult,
} from "./scoring/tool-use-matchers.js";
