/**
 * `entity-tools/claude`: the Claude Agent SDK (Claude Code) as a backend. A subpath of its own, because it
 * loads the SDK (an optional peer) and starts the Claude Code process.
 */
export { ClaudeAgentSdkAdapter } from "./claude-agent-sdk-adapter.js";
export type { ClaudeAgentSdkOptions, ClaudeAgentSdkOwnedOption } from "./claude-agent-sdk-adapter.js";
export { ClaudeAgentSdkError } from "./claude-agent-sdk-error.js";
