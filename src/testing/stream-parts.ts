// A model turn as a whole result or as stream parts, either way round: a scripted or recorded step
// recorded one way can be played the other (a cassette recorded by `run` replays under `stream`).
import type {
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";

/** A generate result as the stream a streaming provider would send: text word by word. */
export function streamOf(result: LanguageModelV3GenerateResult): ReadableStream<LanguageModelV3StreamPart> {
  return streamOfParts(partsOf(result));
}

/** A generate result as the stream parts a streaming provider would send: text word by word. */
export function partsOf(result: LanguageModelV3GenerateResult): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: result.warnings }];
  if (result.response) parts.push({ type: "response-metadata", ...withoutHeaders(result.response) });
  for (const [index, part] of result.content.entries()) {
    if (part.type === "text" || part.type === "reasoning") {
      const id = `${part.type}-${index}`;
      const meta = part.providerMetadata ? { providerMetadata: part.providerMetadata } : {};
      const kind = part.type; // "text" | "reasoning": their start, delta and end parts are named alike
      parts.push({ type: `${kind}-start`, id, ...meta } as LanguageModelV3StreamPart);
      for (const delta of part.text.match(/\S+\s*|\s+/g) ?? [])
        parts.push({ type: `${kind}-delta`, id, delta } as LanguageModelV3StreamPart);
      parts.push({ type: `${kind}-end`, id, ...meta } as LanguageModelV3StreamPart);
    } else {
      parts.push(part as LanguageModelV3StreamPart);
    }
  }
  parts.push({
    type: "finish",
    finishReason: result.finishReason,
    usage: result.usage,
    ...(result.providerMetadata ? { providerMetadata: result.providerMetadata } : {}),
  });
  return parts;
}

/** A stream that sends `parts`, then ends. */
export function streamOfParts(
  parts: readonly LanguageModelV3StreamPart[],
): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/**
 * Stream parts put together as the generate result they stand for: text and reasoning joined per block,
 * every other content part as it came, the finish part's reason, usage and metadata.
 *
 * @throws Error with the message of a stream `error` part.
 */
export function resultOfParts(parts: readonly LanguageModelV3StreamPart[]): LanguageModelV3GenerateResult {
  const content: LanguageModelV3Content[] = [];
  const open = new Map<string, { type: "text" | "reasoning"; text: string; providerMetadata?: unknown }>();
  const result: Omit<LanguageModelV3GenerateResult, "content"> = {
    finishReason: { unified: "other", raw: undefined },
    usage: {
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: undefined, text: undefined, reasoning: undefined },
    },
    warnings: [],
  };
  for (const part of parts) {
    switch (part.type) {
      case "text-start":
      case "reasoning-start": {
        const block = {
          type: part.type === "text-start" ? ("text" as const) : ("reasoning" as const),
          text: "",
        };
        open.set(`${block.type}:${part.id}`, block);
        content.push(block as LanguageModelV3Content);
        break;
      }
      case "text-delta":
      case "reasoning-delta": {
        const block = open.get(`${part.type === "text-delta" ? "text" : "reasoning"}:${part.id}`);
        if (block) block.text += part.delta;
        break;
      }
      case "text-end":
      case "reasoning-end": {
        const block = open.get(`${part.type === "text-end" ? "text" : "reasoning"}:${part.id}`);
        if (block && part.providerMetadata) block.providerMetadata = part.providerMetadata;
        break;
      }
      case "stream-start":
        Object.assign(result, { warnings: part.warnings });
        break;
      case "response-metadata": {
        const { type: _type, ...response } = part;
        Object.assign(result, { response });
        break;
      }
      case "finish":
        Object.assign(result, {
          finishReason: part.finishReason,
          usage: part.usage,
          ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
        });
        break;
      case "error":
        throw part.error instanceof Error ? part.error : new Error(errorText(part.error));
      case "tool-input-start":
      case "tool-input-delta":
      case "tool-input-end":
      case "raw":
        break; // the tool call follows whole; raw chunks are the provider's own
      default:
        content.push(part as LanguageModelV3Content);
    }
  }
  return { ...result, content };
}

function withoutHeaders<T extends { headers?: unknown; body?: unknown }>(
  response: T,
): Omit<T, "headers" | "body"> {
  const { headers: _headers, body: _body, ...rest } = response;
  return rest;
}

function errorText(error: unknown): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : JSON.stringify(error);
}
