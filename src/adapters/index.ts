export type { ModelAdapter, ModelStepRequest, ModelStepResult, ModelToolCall } from "./model-adapter.js";
export { AiSdkAdapter } from "./ai-sdk-adapter.js";
export type { AiSdkAdapterSettings } from "./ai-sdk-adapter.js";
