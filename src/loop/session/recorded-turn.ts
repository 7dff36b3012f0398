import type { ModelMessage } from "ai";

/** What an empty model answer is recorded as, so the conversation still has the model's turn. */
const EMPTY_TURN: ModelMessage = { role: "assistant", content: "(empty response)" };

/**
 * The model's turn as the conversation records it: its messages, each tool call's input an object. A model
 * that sends arguments that are an array, a string, a number or `null` reads why in the call's error result
 * (`expected a JSON object …, got an array`), and its call is recorded with `{}`: sent back as it came, the
 * next request would fail (the Anthropic Messages API refuses it: `tool_use.input: Input should be a valid
 * dictionary`), and a conversation may move to another provider. What the model sent stays in the events
 * and the run log (`ModelResponded.toolCalls`). An empty answer is recorded as `(empty response)`.
 */
export function recordedTurn(messages: readonly ModelMessage[]): ModelMessage[] {
  if (messages.length === 0) return [EMPTY_TURN];
  return messages.map((message) =>
    message.role === "assistant" && Array.isArray(message.content) && message.content.some(notObjectInput)
      ? {
          ...message,
          content: message.content.map((part) => (notObjectInput(part) ? { ...part, input: {} } : part)),
        }
      : message,
  );
}

function notObjectInput(part: { readonly type: string; readonly input?: unknown }): boolean {
  const { input } = part;
  return part.type === "tool-call" && (typeof input !== "object" || input === null || Array.isArray(input));
}
