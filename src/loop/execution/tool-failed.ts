/** What the model reads when a tool threw: the tool's name and the reason. */
export function toolFailedText(toolName: string, reason: string): string {
  return `Tool "${toolName}" failed: ${reason}`;
}

/**
 * The reason in a text that may already say the tool failed (an entity-tools MCP server sends its
 * failures so), so a failure relayed from another run is not announced twice.
 */
export function failureReason(toolName: string, text: string): string {
  const said = toolFailedText(toolName, "");
  return text.startsWith(said) ? text.slice(said.length) : text;
}
