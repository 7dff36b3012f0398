import type { ModelMessage } from "ai";
import { sendableToolName } from "../../tools/tool-name-rules.js";

/** What an empty model answer is recorded as, so the conversation still has the model's turn. */
const EMPTY_TURN: ModelMessage = { role: "assistant", content: "(empty response)" };

/**
 * The model's turn as the conversation records it: its messages, each tool call's input an object and its
 * name one every provider accepts (`sendableToolName`: a made-up `open/tickets` is recorded as
 * `invalid_name_open_tickets`, the model reads what it sent in the call's error result). A model
 * that sends arguments that are an array, a string, a number or `null` reads why in the call's error result
 * (`expected a JSON object …, got an array`), and its call is recorded with `{}`: sent back as it came, the
 * next request would fail (the Anthropic Messages API refuses it: `tool_use.input: Input should be a valid
 * dictionary`), and a conversation may move to another provider. What the model sent stays in the events
 * and the run log (`ModelResponded.toolCalls`). An empty answer is recorded as `(empty response)`.
 */
export function recordedTurn(messages: readonly ModelMessage[]): ModelMessage[] {
  if (messages.length === 0) return [EMPTY_TURN];
  return messages.map((message) =>
    message.role === "assistant" && Array.isArray(message.content) && message.content.some(unsendable)
      ? {
          ...message,
          content: message.content.map((part) =>
            part.type === "tool-call" && unsendable(part)
              ? { ...part, toolName: sendableToolName(part.toolName), input: objectInput(part.input) }
              : part,
          ),
        }
      : message,
  );
}

type Part = { readonly type: string; readonly toolName?: string; readonly input?: unknown };

function unsendable(part: Part): boolean {
  if (part.type !== "tool-call") return false;
  return objectInput(part.input) !== part.input || sendableToolName(part.toolName ?? "") !== part.toolName;
}

function objectInput(input: unknown): unknown {
  return typeof input !== "object" || input === null || Array.isArray(input) ? {} : input;
}
