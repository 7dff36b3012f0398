export { FakePromptRunner } from "./fake-prompt-runner.js";
export type { StubbedReturn } from "./fake-prompt-runner.js";
export { ScriptedLanguageModel, ScriptError } from "./scripted-language-model.js";
export type { ToolNameMatcher, ScriptedRequest } from "./scripted-language-model.js";
export { generateResult } from "./generate-result.js";
export type { ScriptedTurn, ScriptedToolCall } from "./generate-result.js";
export type { RecordedStep, RecordedCall } from "./run-recorder.js";
export { InMemoryConversationStore } from "./in-memory-conversation-store.js";
