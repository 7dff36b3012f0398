export { DecoratorMisuseError } from "./decorator-misuse-error.js";
export { ToolProvider, getToolProviderOptions } from "./tool-provider.js";
export type {
  ToolProviderOptions,
  ResolvedToolProviderOptions,
  ToolProviderDecorator,
} from "./tool-provider.js";
export { LlmTool, getLlmTools, getToolClasses } from "./llm-tool.js";
export type { LlmToolOptions, LlmToolMetadata, ParametersSchema, LlmToolDecorator } from "./llm-tool.js";
export { ToolParam, getToolParamDescriptions } from "./tool-param.js";
export { Hidden, hideField } from "./hidden.js";
export type { HiddenDecorator } from "./hidden.js";
