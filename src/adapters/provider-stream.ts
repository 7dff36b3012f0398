import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
  SharedV3Warning,
} from "@ai-sdk/provider";

/** A streamed provider response, gathered into what `doGenerate` would have returned. */
export interface GatheredStream {
  readonly content: LanguageModelV3Content[];
  readonly finishReason: LanguageModelV3FinishReason;
  readonly usage: LanguageModelV3Usage;
  readonly warnings: SharedV3Warning[];
  /** The response's metadata part: the model the provider answered as. */
  readonly response?: { readonly modelId?: string };
}

/**
 * Who hears a stream's text as it arrives, and each tool call once it is complete; what they return is
 * awaited before the next part is read (a slow reader of the run holds the provider's stream back).
 */
export interface StreamListener {
  readonly onTextDelta: (text: string) => void | Promise<void>;
  readonly onToolCall: (call: Extract<LanguageModelV3Content, { type: "tool-call" }>) => void | Promise<void>;
}

type Part = { readonly type: string; readonly id?: string; readonly delta?: string } & Record<
  string,
  unknown
>;
type Growing = { type: "text" | "reasoning"; text: string; providerMetadata?: SharedV3ProviderMetadata };

/**
 * Reads a provider's stream (`doStream`) the way `streamText` records a step: text and reasoning grow
 * from their start, delta and end parts (the last provider metadata wins), other content is kept as it
 * comes, the finish part gives usage and reason. A text delta is heard when it has text or metadata (as
 * `streamText` forwards it); an error part, or a delta for a part that never started, ends the read with
 * that error, as it ends a `streamText` read (the stream is then cancelled).
 */
export async function gatherStream(
  stream: ReadableStream<LanguageModelV3StreamPart>,
  listener: StreamListener,
  /** Applied to each whole part (a tool call) before it is kept or heard (the deep-arguments guard). */
  map: (part: LanguageModelV3Content) => LanguageModelV3Content = (part) => part,
): Promise<GatheredStream> {
  const content: LanguageModelV3Content[] = [];
  const active = new Map<string, Growing>();
  let warnings: SharedV3Warning[] = [];
  let finish: Pick<GatheredStream, "finishReason" | "usage"> | undefined;
  let modelId: string | undefined;
  const reader = stream.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const part = next.value as unknown as Part;
      switch (part.type) {
        case "stream-start":
          warnings = (part as unknown as { warnings: SharedV3Warning[] }).warnings;
          break;
        case "text-start":
        case "reasoning-start": {
          const growing: Growing = {
            type: part.type === "text-start" ? "text" : "reasoning",
            text: "",
            providerMetadata: part.providerMetadata as SharedV3ProviderMetadata | undefined,
          };
          active.set(`${growing.type}:${part.id}`, growing);
          content.push(growing as LanguageModelV3Content);
          break;
        }
        case "text-delta":
        case "reasoning-delta":
        case "text-end":
        case "reasoning-end": {
          const kind = part.type.startsWith("text") ? "text" : "reasoning";
          const growing = active.get(`${kind}:${part.id}`);
          if (!growing) throw new Error(`${kind} part ${part.id} not found`);
          growing.providerMetadata =
            (part.providerMetadata as SharedV3ProviderMetadata | undefined) ?? growing.providerMetadata;
          if (part.type.endsWith("-end")) active.delete(`${kind}:${part.id}`);
          else growing.text += part.delta!;
          if (part.type === "text-delta" && (part.delta!.length > 0 || part.providerMetadata != null))
            await listener.onTextDelta(part.delta!);
          break;
        }
        case "finish":
          finish = part as unknown as Pick<GatheredStream, "finishReason" | "usage">;
          break;
        case "error":
          throw part.error;
        case "response-metadata": // as `streamText` reads it: the last one naming a model wins
          modelId = (part.modelId as string | undefined) ?? modelId;
          break;
        case "tool-input-start":
        case "tool-input-delta":
        case "tool-input-end":
        case "raw":
          break;
        default: {
          const whole = map(part as unknown as LanguageModelV3Content);
          content.push(whole);
          if (whole.type === "tool-call") await listener.onToolCall(whole);
        }
      }
    }
  } catch (error) {
    await reader.cancel(error).catch(() => {}); // the provider stops sending what nobody reads
    throw error;
  } finally {
    reader.releaseLock();
  }
  return {
    content,
    warnings,
    ...(modelId === undefined ? {} : { response: { modelId } }),
    finishReason: finish?.finishReason ?? { unified: "other", raw: undefined },
    usage: finish?.usage ?? {
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: undefined, text: undefined, reasoning: undefined },
    },
  };
}
