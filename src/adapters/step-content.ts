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
 * parsed (securely, as the SDK parses them; those in `parsed`, by their part, already were), the text,
 * and the assistant message the SDK would record. Returns undefined for content only the SDK knows how to
 * record (files, provider-executed tools, approval requests, and kinds a newer spec adds), which the
 * caller hands to the SDK instead.
 */
export function readStepContent(
  content: readonly { readonly type: string }[],
  offered: ReadonlySet<string>,
  parsed?: ReadonlyMap<object, SdkToolCall>,
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
        const call = parsed?.get(part) ?? parseToolCall(part, offered);
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

/**
 * `JSON.parse`, refusing what the SDK's secure parser refuses: keys that could reach a prototype. Parsed
 * as the SDK parses (its `secureJsonParse`): plainly, then the result searched only when the text holds a
 * `"__proto__"` or `"constructor"` key, escaped or not. A reviver, called for every value, made parsing
 * the arguments several times slower (issue 46).
 */
function secureParse(text: string): { value: unknown } | { value?: undefined; error: unknown } {
  try {
    const value = JSON.parse(text) as unknown;
    if (isObject(value) && (SUSPECT_PROTO.test(text) || SUSPECT_CONSTRUCTOR.test(text)))
      refuseProtoKeys(value);
    return { value };
  } catch (error) {
    return { error };
  }
}

// The SDK's own patterns (`@ai-sdk/provider-utils`, from secure-json-parse): a key, each letter possibly
// written as a \u escape.
const SUSPECT_PROTO =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;
const SUSPECT_CONSTRUCTOR =
  /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:/;

/** Throws as the SDK's parser does on an own `__proto__` key, or a `constructor` object with a `prototype`. */
function refuseProtoKeys(root: object): void {
  let next: object[] = [root];
  while (next.length > 0) {
    const nodes = next;
    next = [];
    for (const node of nodes) {
      const ctor: unknown = Object.hasOwn(node, "constructor")
        ? (node as { constructor: unknown }).constructor
        : undefined;
      if (Object.hasOwn(node, "__proto__") || (isObject(ctor) && Object.hasOwn(ctor, "prototype")))
        throw new SyntaxError("Object contains forbidden prototype property");
      for (const value of Object.values(node)) if (isObject(value)) next.push(value);
    }
  }
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;
