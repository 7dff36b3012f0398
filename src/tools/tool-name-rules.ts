/** The name pattern OpenAI, Gemini and Anthropic all accept; every name we send matches it. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
export const MAX_TOOL_NAME_LENGTH = 64;

/** Whether `name` is a tool name every provider accepts (see `TOOL_NAME_PATTERN`). */
export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}
