export type {
  ToolInjectionStrategy,
  ToolInjectionContext,
  ToolInjectionResult,
  LastToolCall,
} from "./tool-injection-strategy.js";
export { ToolProviderStrategy } from "./tool-provider-strategy.js";
