import type { LanguageModelV3Content, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { LanguageModel } from "ai";
import { wrappedModel } from "./wrapped-model.js";
import { MAX_INPUT_DEPTH } from "../loop/execution/input-shape.js";

/**
 * Tool-call arguments nested thousands of levels deep overflow the stack inside the AI SDK's own parsing,
 * which would end the run as a failed model call. This guard looks at the raw argument text first (one
 * linear scan) and replaces arguments nested deeper than {@link MAX_INPUT_DEPTH} with `{}`, recording
 * the call's id in `tooDeep`, so the loop answers that call with an error result and goes on.
 * Models of a spec before V3 are not guarded (the adapter resolves a model given by id first: `stepModel`).
 */
export function guardDeepArguments(model: LanguageModel, tooDeep: Set<string>): LanguageModel {
  return wrappedModel(model, {
    wrapGenerate: async ({ doGenerate }) => guardedResult(await doGenerate(), tooDeep),
    wrapStream: async ({ doStream }) => {
      const { stream, ...rest } = await doStream();
      return { ...rest, stream: guardedStream(stream, tooDeep) };
    },
  });
}

/** A generated result with too-deep arguments replaced (see {@link guardDeepArguments}); a direct step's. */
export function guardedResult<T extends { readonly content: LanguageModelV3Content[] }>(
  result: T,
  tooDeep: Set<string>,
): T {
  return { ...result, content: result.content.map((part) => guarded(part, tooDeep)) };
}

/** A stream with too-deep arguments replaced (see {@link guardDeepArguments}). */
function guardedStream(
  stream: ReadableStream<LanguageModelV3StreamPart>,
  tooDeep: Set<string>,
): ReadableStream<LanguageModelV3StreamPart> {
  const guard = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
    transform(part, controller) {
      controller.enqueue(
        part.type === "tool-call" ? (guarded(part, tooDeep) as LanguageModelV3StreamPart) : part,
      );
    },
  });
  return stream.pipeThrough(guard);
}

/** A part with too-deep arguments replaced (see {@link guardDeepArguments}); a direct step's, as it is read. */
export function guarded(part: LanguageModelV3Content, tooDeep: Set<string>): LanguageModelV3Content {
  if (part.type !== "tool-call" || nestingDepth(part.input) <= MAX_INPUT_DEPTH) return part;
  tooDeep.add(part.toolCallId);
  return { ...part, input: "{}" };
}

/** The deepest nesting of `[` and `{` in JSON text, outside strings. */
function nestingDepth(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") deepest = Math.max(deepest, ++depth);
    else if (c === "]" || c === "}") depth--;
  }
  return deepest;
}
