import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModel } from "ai";
import { InvalidSettingError } from "../../errors/entity-tools-error.js";
import { stepModel } from "../../adapters/step-model.js";
import { carriedResults, offeredToolNames } from "../step-matching.js";
import { CASSETTE_FORMAT, CASSETTE_VERSION, type CassetteResponse } from "./cassette.js";
import { cassetteObject } from "./cassette-json.js";
import { CassetteRecording } from "./cassette-recording.js";

/**
 * Wraps an AI SDK `LanguageModel` so that each call it answers is recorded to a cassette file (see
 * docs/testing.md, "Record and replay"): the names of the tools the request offered, and the response
 * (content, finish reason, usage, provider metadata; for a stream, its parts). The file is a whole
 * cassette once each call returns: the first call replaces an older file, and each later one adds only
 * its own bytes (the cost of a recording grows with its calls, not with their square), so the file is
 * complete whenever a run has finished, and a process that dies keeps the calls that had returned.
 * Request headers, API keys, the request body, the prompt and response headers are never written.
 * Calls that fail, and streams the caller cancels, are not recorded. Record one run at a time per file:
 * a replay plays the calls in the order they were recorded. A run resumed from a snapshot (or a
 * conversation's next turn) recorded on a new `recordModel` of the same file and model, in another
 * process, goes on in the file when the file ends where the run paused (its prompt holds the file's
 * recorded calls up to its last step); any other first call replaces the file.
 *
 * A model given by id (`recordModel("openai/gpt-5-mini", file)`) is the model the id names when
 * `recordModel` is called, resolved as a runner resolves one at each step: through the process's default
 * provider (`globalThis.AI_SDK_DEFAULT_PROVIDER`), else the AI Gateway. Set the default provider first.
 *
 * Replay the file with {@link ReplayLanguageModel.fromFile} or `FakePromptRunner.loadCassette`.
 *
 * @throws InvalidSettingError for a model of a provider spec before V3.
 */
export function recordModel(model: LanguageModel, file: string): LanguageModel {
  const resolved = stepModel(model);
  const version: string = resolved.specificationVersion;
  if (version !== "v3" && version !== "v4")
    throw new InvalidSettingError(
      "recordModel's model",
      `a ${version} model`,
      'a model of provider spec V3 or V4 (e.g. openai("gpt-5-mini"))',
    );
  const recording = new CassetteRecording(file, {
    format: CASSETTE_FORMAT,
    version: CASSETTE_VERSION,
    model: { provider: resolved.provider, modelId: resolved.modelId, specificationVersion: version },
  });
  const record = async (params: LanguageModelV3CallOptions, response: CassetteResponse): Promise<void> => {
    await recording.begin(params.prompt);
    const results = carriedResults(params.prompt);
    const failed = results.flatMap((r) => (r.failed ? [r.toolCallId] : []));
    const tools = offeredToolNames(params);
    await recording.add({ request: results.length > 0 ? { tools, failed } : { tools }, response });
  };
  return wrapLanguageModel({
    model: resolved as LanguageModelV3,
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: async ({ doGenerate, params }) => {
        const result = await doGenerate();
        await record(params, generated(result));
        return result;
      },
      wrapStream: async ({ doStream, params }) => {
        const { stream, ...rest } = await doStream();
        const parts: LanguageModelV3StreamPart[] = [];
        const tap = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          transform(part, controller) {
            // An error keeps only its message: a provider's error object can hold the request it failed on.
            if (part.type === "error")
              parts.push({ type: "error", error: { message: messageOf(part.error) } });
            else if (part.type !== "raw") parts.push(part);
            controller.enqueue(part);
          },
          flush: () =>
            record(params, {
              kind: "stream",
              parts: parts.map((part, i) => cassetteObject(part, ["parts", i])),
            }),
        });
        // Only the stream: the result's request (its body) and response (its headers) are not kept.
        return { ...rest, stream: stream.pipeThrough(tap) };
      },
    },
  });
}

/** What a cassette keeps of a generate result: never the request body, nor the response's headers or body. */
function generated(result: LanguageModelV3GenerateResult): CassetteResponse {
  const { id, modelId, timestamp } = result.response ?? {};
  const response =
    (id ?? modelId ?? timestamp) ? cassetteObject({ id, modelId, timestamp }, ["response"]) : undefined;
  return {
    kind: "generate",
    content: result.content.map((part, i) => cassetteObject(part, ["content", i])),
    finishReason: cassetteObject(result.finishReason, ["finishReason"]),
    usage: cassetteObject(result.usage, ["usage"]),
    ...(result.providerMetadata
      ? { providerMetadata: cassetteObject(result.providerMetadata, ["providerMetadata"]) }
      : {}),
    ...(response ? { response } : {}),
    warnings: result.warnings.map((warning, i) => cassetteObject(warning, ["warnings", i])),
  };
}

function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : String(error);
}
