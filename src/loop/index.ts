export {
  ToolLoopError,
  MaxIterationsExceededError,
  ToolNotFoundError,
  OutputValidationError,
  ToolLoopAbortedError,
  ModelCallError,
  StrategyError,
} from "./errors.js";
export type { ToolLoopResult } from "./tool-loop-result.js";
export type { ToolMiddleware, ToolCallInfo } from "./tool-middleware.js";
