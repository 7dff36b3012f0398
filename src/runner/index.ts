export {
  PromptRunner,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_MAX_INJECTED_TOOLS,
  DEFAULT_MAX_EXPANSIONS,
} from "./prompt-runner.js";
export type { PromptRunnerOptions, DiscoveryOptions, RunOptions, RunnerConfig } from "./prompt-runner.js";
export { MissingOutputSchemaError } from "./output-target.js";
export type { OutputTarget } from "./output-target.js";
export { DuplicateToolNameError } from "./tool-sources.js";
export type { ToolSource } from "./tool-sources.js";
