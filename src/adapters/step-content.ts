import type { LanguageModelV3Content } from "@ai-sdk/provider";
import { InvalidToolInputError, type AssistantModelMessage, type ModelMessage } from "ai";

/** A tool call as the AI SDK parses it: the input parsed, or the raw text and the reason it was refused. */
export interface SdkToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly invalid?: boolean;
  readonly error?: unknown;
}

/** A provider response read the way `generateText` reads it, for the kinds of content read here. */
export interface StepContent {
  readonly toolCalls: readonly SdkToolCall[];
  readonly text: string;
  readonly responseMessages: readonly ModelMessage[];
}

/**
 * Reads a provider's content as `generateText` would for a step whose tools have no `execute`: tool calls
 * parsed (securely, as the SDK parses them), the text, and the assistant message the SDK would record.
 * Returns undefined for content only the SDK knows how to record (files, provider-executed tools,
 * approval requests, and kinds a newer spec adds), which the caller hands to the SDK instead.
 */
export function readStepContent(
  content: readonly { readonly type: string }[],
  offered: ReadonlySet<string>,
): StepContent | undefined {
  const parts: Exclude<AssistantModelMessage["content"], string> = [];
  const toolCalls: SdkToolCall[] = [];
  let text = "";
  for (const part of content as readonly LanguageModelV3Content[]) {
    switch (part.type) {
      case "source":
        break;
      case "text":
        // ai 6 drops every empty text; ai 7 keeps one that carries provider metadata.
        if (part.text.length === 0 && part.providerMetadata != null) return undefined;
        text += part.text;
        if (part.text.length > 0)
          parts.push({ type: "text", text: part.text, providerOptions: part.providerMetadata });
        break;
      case "reasoning":
        parts.push({ type: "reasoning", text: part.text, providerOptions: part.providerMetadata });
        break;
      case "tool-call": {
        if (part.providerExecuted) return undefined;
        const call = parseToolCall(part, offered);
        toolCalls.push(call);
        parts.push({
          type: "tool-call",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: call.invalid && typeof call.input !== "object" ? {} : call.input,
          providerExecuted: part.providerExecuted,
          providerOptions: part.providerMetadata,
        });
        break;
      }
      default:
        return undefined;
    }
  }
  return {
    toolCalls,
    text,
    responseMessages: parts.length > 0 ? [{ role: "assistant", content: parts }] : [],
  };
}

/**
 * The SDK's parsing of a call to a function tool without its own validator: empty input is `{}`; JSON with
 * `__proto__` or `constructor.prototype` keys is refused like malformed JSON; an unknown tool's call is
 * invalid, its input parsed when it can be.
 */
export function parseToolCall(
  part: { readonly toolCallId: string; readonly toolName: string; readonly input: string },
  offered: ReadonlySet<string>,
): SdkToolCall {
  const { toolCallId, toolName, input: text } = part;
  const parsed = text.trim() === "" && offered.has(toolName) ? { value: {} } : secureParse(text);
  if (!offered.has(toolName))
    return { toolCallId, toolName, input: "error" in parsed ? text : parsed.value, invalid: true };
  if ("error" in parsed)
    return {
      toolCallId,
      toolName,
      input: text,
      invalid: true,
      error: new InvalidToolInputError({ toolName, toolInput: text, cause: parsed.error }),
    };
  return { toolCallId, toolName, input: parsed.value };
}

/** `JSON.parse`, refusing what the SDK's secure parser refuses: keys that could reach a prototype. */
function secureParse(text: string): { value: unknown } | { value?: undefined; error: unknown } {
  try {
    return {
      value: JSON.parse(text, (key, value: unknown) => {
        if (
          key === "__proto__" ||
          (key === "constructor" && isObject(value) && Object.hasOwn(value, "prototype"))
        )
          throw new SyntaxError("Object contains forbidden prototype property");
        return value;
      }) as unknown,
    };
  } catch (error) {
    return { error };
  }
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;
