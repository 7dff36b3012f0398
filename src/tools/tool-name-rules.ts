/** The name pattern OpenAI, Gemini and Anthropic all accept; every name we send matches it. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
export const MAX_TOOL_NAME_LENGTH = 64;

/** Whether `name` is a tool name every provider accepts (see `TOOL_NAME_PATTERN`). */
export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

/**
 * `name` as a conversation sent to a provider may hold it: a name the model made up that no provider accepts
 * (`open/tickets`, `öpen`, empty, longer than 64 characters) is recorded as `invalid_name_<its letters>`,
 * at most 64 characters long: sent back as it came, OpenAI refuses the next request (`Invalid
 * 'messages[9].tool_calls[0].function.name': string does not match pattern`). The model reads the name it
 * sent in the call's error result (`Unknown tool "open/tickets"`). A valid name is returned as it is.
 */
export function sendableToolName(name: string): string {
  if (isValidToolName(name)) return name;
  return `invalid_name_${name.replace(/[^a-zA-Z0-9_-]/g, "_")}`.slice(0, MAX_TOOL_NAME_LENGTH);
}
