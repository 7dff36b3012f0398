// Global (Symbol.for) keys so that two copies of the package in one process (a build and its sources)
// read each other's metadata.
export const TOOL_PROVIDER_KEY = Symbol.for("entity-tools:tool-provider");
export const LLM_TOOLS_KEY = Symbol.for("entity-tools:llm-tools");
export const TOOL_PARAMS_KEY = Symbol.for("entity-tools:tool-params");
