export { DecoratorMisuseError } from "./decorator-misuse-error.js";
export { ToolProvider, getToolProviderOptions } from "./tool-provider.js";
export type { ToolProviderOptions, ResolvedToolProviderOptions } from "./tool-provider.js";
export { LlmTool, getLlmTools, getToolClasses } from "./llm-tool.js";
export type { LlmToolOptions, LlmToolMetadata, ParametersSchema } from "./llm-tool.js";
export { ToolParam, getToolParamDescriptions } from "./tool-param.js";
