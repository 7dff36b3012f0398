import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Message } from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModel, type ModelMessage } from "ai";

/** The options of a provider call other than what changes at every step. */
export type StepCallOptions = Omit<
  LanguageModelV3CallOptions,
  "prompt" | "tools" | "toolChoice" | "abortSignal"
>;

/** One run's conversation as the provider reads it, and how the SDK last called the provider. */
interface Converted {
  readonly sources: readonly ModelMessage[];
  /** The converted messages, the system prompt left out (it may change between steps). */
  readonly prompt: readonly LanguageModelV3Message[];
  readonly options: StepCallOptions;
}

/**
 * One step's view of the cache: the model to call (it puts the converted earlier messages back in front of
 * the prompt, and records the result), the messages not converted yet, and, once the SDK has called the
 * provider for this run, the options it built for that call.
 */
export interface PromptSlice {
  readonly model: LanguageModel;
  readonly messages: ModelMessage[];
  readonly options?: StepCallOptions;
}

/**
 * Keeps each run's conversation converted to the provider's prompt, so a step converts only the messages
 * added since the last step. `generateText` validates (zod) and converts every message it is given; given
 * the whole history at every step, a run's cost grew with the square of its steps. Each message is still
 * validated and converted by the SDK (once), and a middleware puts the converted earlier messages back in
 * front before the provider is called, so the provider receives the same prompt as before.
 *
 * Runs are told apart by their history array (a run appends to one array); a history that is not the
 * cached one extended (a copy, an edit, a resumed run) is converted whole, as is a step that starts with
 * a tool message (the SDK merges consecutive tool messages). Models given by id, and specs before V3,
 * are always given the whole history.
 */
export class ConvertedPromptCache {
  private readonly runs = new WeakMap<readonly ModelMessage[], Converted>();

  /** The slice of `history` a step over `system` still has to convert, and the model that completes it. */
  slice(model: LanguageModel, system: string | undefined, history: readonly ModelMessage[]): PromptSlice {
    const version: string = typeof model === "object" ? model.specificationVersion : "";
    if (version !== "v3" && version !== "v4") return { model, messages: [...history] };
    const cached = this.runs.get(history);
    const reused = cached && extends_(history, cached.sources) ? cached : undefined;
    const prefix = reused?.prompt ?? [];
    const sources = [...history];
    const systemCount = systemMessages(system).length;
    const runs = this.runs;
    return {
      messages: sources.slice(reused?.sources.length ?? 0),
      ...(reused ? { options: reused.options } : {}),
      model: wrapLanguageModel({
        model: model as LanguageModelV3,
        middleware: {
          specificationVersion: "v3",
          transformParams: async ({ params }) => {
            const {
              prompt: sliced,
              tools: _tools,
              toolChoice: _choice,
              abortSignal: _signal,
              ...options
            } = params;
            const prompt = [...prefix, ...sliced.slice(systemCount)];
            runs.set(history, { sources, prompt, options });
            return { ...params, prompt: [...sliced.slice(0, systemCount), ...prompt.map(ownCopy)] };
          },
        },
      }),
    };
  }
}

/**
 * The prompt's leading system messages, as the SDK makes them of a system string: exactly one. The cache
 * keeps the prompt without them (the system prompt may differ between steps) and a direct step puts them
 * back in front.
 */
export function systemMessages(system: string | undefined): LanguageModelV3Message[] {
  return system === undefined ? [] : [{ role: "system", content: system }];
}

/** Whether `history` is `sources` with at least one message appended, the first not a tool message. */
function extends_(history: readonly ModelMessage[], sources: readonly ModelMessage[]): boolean {
  if (history.length <= sources.length || history[sources.length]!.role === "tool") return false;
  for (let i = 0; i < sources.length; i++) if (history[i] !== sources[i]) return false;
  return true;
}

/**
 * A copy of a cached message down to its parts, as the SDK's own conversion hands out fresh objects: a
 * middleware or provider that edits its prompt in place (a cache marker on the last message) must not
 * leave the edit in the next step's prompt.
 */
function ownCopy(message: LanguageModelV3Message): LanguageModelV3Message {
  if (typeof message.content === "string") return { ...message };
  return { ...message, content: message.content.map((part) => ({ ...part })) } as LanguageModelV3Message;
}
