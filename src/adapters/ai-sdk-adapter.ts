import { generateText, streamText, type LanguageModel } from "ai";
import { untilAborted } from "../loop/errors/until-aborted.js";
import { joinSignals } from "../loop/errors/joined-signal.js";
import type { ToolDelivery } from "../tools/tool-delivery.js";
import { ConvertedPromptCache, learnedOptionsKey, type PromptSlice } from "./converted-prompt-cache.js";
import { guardDeepArguments, guarded, guardedResult } from "./deep-arguments-guard.js";
import {
  checkModelSettings,
  sdkTelemetryObserves,
  stepTimeoutMs,
  type AiSdkAdapterSettings,
} from "./model-settings.js";
import { sdkInternals } from "./sdk-internals.js";
import { sdkMessages } from "./sdk-tool-output.js";
import { gatherStream } from "./provider-stream.js";
import { parseToolCall, type SdkToolCall } from "./step-content.js";
import { DeferredDelivery, type DeliveredStep } from "./deferred-delivery/deferred-delivery.js";
import { sdkStepTools } from "./deferred-delivery/sdk-step-tools.js";
import { stampedResult, stepResult, toolCallOf, withFinishReason } from "./sdk-step-result.js";
import { stepModel } from "./step-model.js";
import { readDirectResult, type DirectCall } from "./direct-step-result.js";
import { directCallOf } from "./direct-call.js";
import { StreamPace } from "./stream-pace.js";
import type {
  ModelAdapter,
  ModelStepRequest,
  ModelStepResult,
  ModelStreamPart,
} from "../loop/ports/model-port.js";
import { providerMediaTypes } from "./provider-media-types.js";
import { describeMedia, type StepMedia } from "./step-media.js";
import type { ToolResultMediaTypes } from "../loop/results/media-types.js";

export type { AiSdkAdapterSettings } from "./model-settings.js";

/**
 * Any AI SDK `LanguageModel` as a {@link ModelAdapter}. Tools have no `execute`: the model's turn ends the
 * call and our loop runs the tools. The tool set may differ at every step.
 *
 * A run's first step is one `generateText` (or `streamText`) call, which validates and converts the
 * caller's messages and builds the provider call's options from the settings. Its later steps call the
 * provider spec (`doGenerate`, `doStream`) directly, with those options and the SDK's own conversion (of
 * the new messages only), retries and tool-call parsing, so a step costs the same at step 40 as at step 2
 * and the provider receives what the SDK would have sent. Once the SDK has built the options for some run,
 * a later run with the same settings whose prompt is user text makes its first step directly too (see
 * `ConvertedPromptCache`). A model given by id is resolved at every step as the SDK resolves it (see
 * `stepModel`) and stepped as that model. Specs before V3 go through the SDK at every step, and so does
 * every step while the SDK's own telemetry watches (see `sdkTelemetryObserves`) or when the SDK's
 * internals fail their check (see `sdkInternals`).
 *
 * With deferred delivery (`withToolDelivery("deferred")`), discovered tools reach an Anthropic Messages or
 * OpenAI Responses model in its provider's deferred form instead of the tool list (see `DeferredDelivery`).
 *
 * @throws UnsupportedModelSettingError for a setting it cannot apply to every step.
 */
export class AiSdkAdapter implements ModelAdapter {
  /** True: every step may offer another tool set. */
  readonly supportsDynamicTools = true;
  private readonly prompts = new ConvertedPromptCache();
  private readonly settings: AiSdkAdapterSettings;
  /** Why later steps go through the SDK (the internals failed their check), until it has been reported. */
  private unreported: string | undefined;
  private degraded = false;
  private readonly delivery: DeferredDelivery;
  /**
   * The keys, per kind of call, of the settings that shape a provider call's options, to share them
   * across runs (see `slice`): made once, not at every step.
   */
  private readonly optionsKeys: { readonly generate: string; readonly stream: string } | undefined;

  constructor(
    private readonly model: LanguageModel,
    settings: AiSdkAdapterSettings = {},
    private readonly toolDelivery: ToolDelivery = "inline",
    /** The media the model takes in a tool result, in place of what is known of its provider. */
    private readonly declaredMedia?: ToolResultMediaTypes,
  ) {
    this.settings = checkModelSettings(settings);
    // What the SDK builds a call's options from: not the retries, the time limit or telemetry.
    const {
      maxRetries: _retries,
      timeout: _timeout,
      experimental_telemetry: _telemetry,
      ...shaping
    } = this.settings;
    const key = learnedOptionsKey(shaping);
    this.optionsKeys =
      key === undefined ? undefined : { generate: `generate ${key}`, stream: `stream ${key}` };
    this.delivery = new DeferredDelivery(toolDelivery);
  }

  /**
   * Media the model takes in a tool result: those declared (`withToolResultMediaTypes`), else for providers
   * we know (OpenAI, Anthropic), else undefined. Read when a run starts: of the model a model id names then
   * (see `stepModel`); a later step of a model id resolved to another model is sent what that one takes.
   */
  get toolResultMediaTypes(): ToolResultMediaTypes | undefined {
    return this.declaredMedia ?? providerMediaTypes(stepModel(this.model));
  }

  /** This adapter's model and settings, delivering discovered tools as `delivery` says (see `ToolDelivery`). */
  withToolDelivery(delivery: ToolDelivery): AiSdkAdapter {
    return delivery === this.toolDelivery
      ? this
      : new AiSdkAdapter(this.model, this.settings, delivery, this.declaredMedia);
  }

  /** This adapter, its model taking `types` in a tool result at every step (see `toolResultMediaTypes`). */
  withToolResultMediaTypes(types: ToolResultMediaTypes): AiSdkAdapter {
    return new AiSdkAdapter(this.model, this.settings, this.toolDelivery, [...types]);
  }

  /** One model call (see {@link ModelAdapter.step}). */
  async step(original: ModelStepRequest): Promise<ModelStepResult> {
    return this.limited(original, async (request, delivered, model, media) => {
      const tooDeep = new Set<string>();
      const slice = this.slice(request, "generate", model, media);
      const direct = await this.directCall(request, slice, delivered, model);
      if (direct) {
        const result = await direct.retry(() => direct.model.doGenerate(direct.options()));
        return readDirectResult(request, direct, guardedResult(result, tooDeep), tooDeep);
      }
      const result = await generateText(await this.call(request, slice, delivered, tooDeep, model));
      const read = stepResult(result.content, result.response, result.text, result.usage, tooDeep);
      return withFinishReason(read, result.finishReason);
    });
  }

  /** The same step, streamed: text deltas and tool calls are reported as they arrive. */
  async stream(
    original: ModelStepRequest,
    onPart: (part: ModelStreamPart) => void | Promise<void>,
  ): Promise<ModelStepResult> {
    return this.limited(original, (request, delivered, model, media) =>
      this.streamStep(request, delivered, model, media, onPart),
    );
  }

  private async streamStep(
    request: ModelStepRequest,
    delivered: DeliveredStep,
    model: LanguageModel,
    media: StepMedia | undefined,
    onPart: (part: ModelStreamPart) => void | Promise<void>,
  ): Promise<ModelStepResult> {
    const tooDeep = new Set<string>();
    const slice = this.slice(request, "stream", model, media);
    const direct = await this.directCall(request, slice, delivered, model);
    if (direct) {
      const { stream } = await direct.retry(() => direct.model.doStream(direct.options()));
      // Each call's arguments are parsed once, as it arrives: the step's result reads them from here.
      const parsed = new Map<object, SdkToolCall>();
      // Guarded as it is read, not piped through a TransformStream (web streams made per step: issue 46).
      const gathered = await gatherStream(
        stream,
        {
          onTextDelta: (text) => onPart({ type: "text-delta", text }),
          onToolCall: (call) => {
            const read = parseToolCall(call, direct.offered.names);
            parsed.set(call, read);
            return onPart({ type: "tool-call", call: toolCallOf(read, tooDeep) });
          },
        },
        (part) => guarded(part, tooDeep),
      );
      return readDirectResult(request, direct, gathered, tooDeep, parsed);
    }
    // The SDK's stream read at our reader's pace: ai 6's reads its provider ahead by itself.
    const pace = new StreamPace();
    const options = await this.call(request, slice, delivered, tooDeep, model);
    const result = streamText({ ...options, model: pace.model(options.model), onError: () => {} });
    for await (const part of pace.read(result.fullStream)) {
      if (part.type === "error") throw part.error;
      if (part.type === "text-delta") await onPart({ type: "text-delta", text: part.text });
      if (part.type === "tool-call") await onPart({ type: "tool-call", call: toolCallOf(part, tooDeep) });
    }
    const [content, response, text, usage, finishReason] = await Promise.all([
      result.content,
      result.response,
      result.text,
      result.usage,
      result.finishReason,
    ]);
    return withFinishReason(stepResult(content, response, text, usage, tooDeep), finishReason);
  }

  /**
   * Runs one step under the `timeout` setting (one rule for the direct path and the SDK's: the step's
   * signal aborts when it passes), with the deliveries of deferred tools in its messages, and adds the
   * step's model id (and the response's, `responseModelId`, when another) and pending warnings to the
   * result. The step's model is this adapter's, a model given by id resolved (see `stepModel`): what the
   * step sends (its deferred form, the media of its tool results) is decided by that model.
   */
  private async limited(
    original: ModelStepRequest,
    step: (
      request: ModelStepRequest,
      delivered: DeliveredStep,
      model: LanguageModel,
      media: StepMedia | undefined,
    ) => Promise<ModelStepResult>,
  ): Promise<ModelStepResult> {
    const model = stepModel(this.model);
    // A model id's results were built for the model it named when the run started (none declared).
    const types = typeof this.model === "string" && !this.declaredMedia && providerMediaTypes(model);
    const media = types ? { types, warnings: [] } : undefined;
    const delivered = this.delivery.step(original, model);
    const ms = stepTimeoutMs(this.settings.timeout);
    const timeout = ms === undefined ? undefined : AbortSignal.timeout(ms);
    const joined = original.signal && timeout ? joinSignals([original.signal, timeout]) : undefined;
    const signal = joined ? joined.signal : (original.signal ?? timeout);
    // One copy of the request a step (the two spreads and arrays here were a tenth of what a step of
    // `limited` allocated: docs/performance.md, round 14).
    const request = { ...original, messages: delivered.messages, signal };
    // A provider that ignores its signal is cut off all the same once the step's time is up.
    const running = untilAborted(step(request, delivered, model, media), signal);
    const result = await (joined ? running.finally(() => joined.release()) : running);
    const warnings: string[] = [];
    if (this.unreported !== undefined) warnings.push(this.unreported);
    if (delivered.warning !== undefined) warnings.push(delivered.warning);
    if (media) warnings.push(...media.warnings);
    this.unreported = undefined;
    return stampedResult(result, model.modelId, warnings);
  }

  /**
   * What of the run's conversation this step still converts. A run's first step may take the options an
   * earlier run with the same settings learned from the SDK.
   */
  private slice(
    request: ModelStepRequest,
    kind: "generate" | "stream",
    model: LanguageModel,
    media: StepMedia | undefined,
  ): PromptSlice {
    const slice = this.prompts.slice(model, request.system, request.messages, this.optionsKeys?.[kind]);
    if (!media) return slice;
    return { ...slice, messages: describeMedia(slice.messages, media.types, media.warnings) };
  }

  /**
   * The options of one SDK call: tools without `execute`, so the SDK stops after the model's turn; the
   * model guarded (deep arguments) and completing its prompt from the cache. The new messages go in the
   * form the installed SDK takes without a deprecation warning (see `sdkMessages`).
   */
  private async call(
    request: ModelStepRequest,
    slice: PromptSlice,
    delivered: DeliveredStep,
    tooDeep: Set<string>,
    model: LanguageModel,
  ) {
    const { timeout: _timeout, ...settings } = this.settings; // applied as the step's signal (`limited`)
    return {
      model: slice.sdkModel(guardDeepArguments(model, tooDeep)),
      system: request.system,
      messages: sdkMessages(slice.messages, (await sdkInternals()).internals?.mapToolOutput),
      ...sdkStepTools(request.tools, delivered),
      abortSignal: request.signal,
      ...settings,
    };
  }

  /**
   * A step on the provider spec, as the SDK would make it, once the SDK has made one for this run (its
   * options are then known): the prompt and tools of this step, and the SDK's retries around the call.
   * Undefined when the step must go through the SDK.
   */
  private async directCall(
    request: ModelStepRequest,
    slice: PromptSlice,
    delivered: DeliveredStep,
    stepped: LanguageModel,
  ): Promise<DirectCall | undefined> {
    if (!slice.options || this.degraded || sdkTelemetryObserves(this.settings)) return undefined;
    const { internals, problem } = await sdkInternals();
    if (!internals) return this.degrade(problem);
    const made = await directCallOf(internals, request, slice, slice.options, delivered, stepped, {
      maxRetries: this.settings.maxRetries,
    });
    return typeof made === "string" ? this.degrade(made) : made;
  }

  /** From now on every step goes through the SDK; the next result says why, once. */
  private degrade(problem: string): undefined {
    this.degraded = true;
    this.unreported =
      `The AI SDK's internals (ai/internal) did not behave as expected: ${problem}. ` +
      "Every step now goes through generateText: correct, and slower on long runs. Upgrade entity-tools or pin ai.";
    return undefined;
  }
}
