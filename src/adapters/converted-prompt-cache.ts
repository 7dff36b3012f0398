import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Message } from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModel, type ModelMessage } from "ai";
import { isRunHistory } from "../loop/run/run-history.js";
import { frozenDataCopy, snapshotCopy } from "../loop/snapshot/snapshot-copy.js";

/** The options of a provider call other than what changes at every step. */
export type StepCallOptions = Omit<
  LanguageModelV3CallOptions,
  "prompt" | "tools" | "toolChoice" | "abortSignal"
>;

/**
 * One run's conversation as the provider reads it, and how the SDK last called the provider. Both arrays
 * only grow (a step appends what it converted), so a step costs the same at step 2 000 as at step 2.
 */
interface Converted {
  /** The history messages converted so far, in order: the caller's own objects, to tell an edit apart. */
  readonly sources: ModelMessage[];
  /** Their conversion, the system prompt left out (it may change between steps); frozen copies. */
  readonly prompt: LanguageModelV3Message[];
  options: StepCallOptions;
  /** The model they were converted for (`provider modelId`): see `converterOf`. */
  readonly converter: string;
}

/**
 * The options the SDK built for a provider call, by spec version and the key of the call's kind and
 * settings (the SDK builds a streamed call's options apart; see {@link learnedOptionsKey}): every run's
 * own, shared by the process. The SDK builds them from the call's settings alone (sampling, limits,
 * provider options, headers with its user agent), not from the model or the conversation, so once the SDK
 * has built them for some run, a run with the same settings can make its first step on the provider spec
 * too: its `generateText` call (validating and converting the prompt, telemetry plumbing, reading the
 * result: about a third of a 20-step run, issue 46) is then not needed. For the process, not per model
 * object: a server that makes its model (or a runner) anew per request still gets it (kept per model
 * object, a 20-step run of such a caller cost 1.6 times as much). Each run takes its own copy. Bounded: a
 * process sees few distinct settings.
 */
const learned = new Map<string, StepCallOptions>();
const MAX_LEARNED = 64;

/** Keeps a copy of the options the SDK built (before a middleware further in can edit them). */
function learn(key: string, options: StepCallOptions): void {
  if (learned.has(key)) return;
  let copy: StepCallOptions;
  try {
    copy = snapshotCopy(options);
  } catch {
    return; // not data (a function): this key's runs learn their own, as before
  }
  if (learned.size >= MAX_LEARNED) learned.delete(learned.keys().next().value!);
  learned.set(key, copy);
}

/**
 * The key of `settings` for sharing the options built from them, or `undefined` when they hold anything
 * but plain data (a run with such settings learns its own options at its first step, as before).
 */
export function learnedOptionsKey(settings: object): string | undefined {
  try {
    return JSON.stringify(settings, function (this: Record<string, unknown>, key) {
      // The value itself, not what its `toJSON` made of it (a Date, a class instance): not plain data.
      const value: unknown = this[key];
      if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint")
        throw new TypeError("not plain data");
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) throw new TypeError("not plain data");
      }
      return value;
    });
  } catch {
    return undefined;
  }
}

/**
 * One step's view of the cache: the messages not converted yet, once the SDK has called the provider for
 * this run (or an earlier run with the same settings) the options it built for that call, and two ways
 * to complete a prompt with the converted earlier messages (and record the step's new ones): a model for
 * a step through the SDK, and `complete` for a step on the provider spec.
 */
export interface PromptSlice {
  readonly messages: ModelMessage[];
  readonly options?: StepCallOptions;
  /** `model` with a middleware that completes the SDK's prompt and records it (built only when asked). */
  sdkModel(model: LanguageModel): LanguageModel;
  /**
   * A direct step's full prompt: `prompt` (the system messages, then the step's new messages converted)
   * with the cached earlier messages put in between, the new ones recorded. Called again by a retried
   * call, it starts from the same point, as the middleware does.
   */
  complete(prompt: LanguageModelV3Message[], options: StepCallOptions): LanguageModelV3Message[];
}

export class ConvertedPromptCache {
  private readonly runs = new WeakMap<readonly ModelMessage[], Converted>();

  /**
   * The slice of `history` a step over `system` still has to convert, and the model that completes it.
   * With `shared` (the key of the call's kind and settings, made once by the adapter), a history the
   * cache does not hold yet may start with the options an earlier run's first step learned (when it is
   * only user text: nothing the SDK's validation could refuse).
   */
  slice(
    model: LanguageModel,
    system: string | undefined,
    history: readonly ModelMessage[],
    shared?: string,
  ): PromptSlice {
    const version: string = typeof model === "object" ? model.specificationVersion : "";
    if (typeof model !== "object" || (version !== "v3" && version !== "v4"))
      return { messages: [...history], sdkModel: throughCallOptions, complete: (prompt) => prompt };
    const cached = this.runs.get(history);
    const kept = cached && extends_(history, cached.sources) ? cached : undefined;
    // A step of another model than the run's last (a default provider that routes each call) converts the
    // whole conversation again, for its own model; the options, built from the settings alone, stay.
    const converter = converterOf(model);
    const reused = kept?.converter === converter ? kept : undefined;
    // A run's first step only: its later steps have the options of its own first.
    const learning = kept || shared === undefined ? undefined : `${version} ${shared}`;
    const taught = learning && onlyUserText(history) ? learned.get(learning) : undefined;
    // A run gets its own copy: a middleware that edits the options in place (a header added to the same
    // object) then changes its own later steps, as before, not other runs.
    const options = kept?.options ?? (taught && snapshotCopy(taught));
    // Where this step starts: a retried provider call completes the prompt again, from the same point.
    const sourceCount = reused?.sources.length ?? 0;
    const promptCount = reused?.prompt.length ?? 0;
    const messages = history.slice(sourceCount);
    const systemCount = systemMessages(system).length;
    const runs = this.runs;
    const complete = (sliced: LanguageModelV3Message[], options: StepCallOptions) => {
      const run = reused ?? { sources: [], prompt: [], options, converter };
      if (run.sources.length !== sourceCount) run.sources.length = sourceCount;
      if (run.prompt.length !== promptCount) run.prompt.length = promptCount;
      // The provider's own array, made before this step's messages are cached: one copy of the
      // cached pointers per step, as a block (concat copies them wholesale), not two.
      const prompt = sliced.slice(0, systemCount).concat(run.prompt, sliced.slice(systemCount));
      for (const message of messages) run.sources.push(message);
      for (let i = systemCount; i < sliced.length; i++) run.prompt.push(frozenDataCopy(sliced[i]!));
      run.options = options;
      runs.set(history, run);
      if (learning) learn(learning, options);
      return prompt;
    };
    return {
      messages,
      ...(options ? { options } : {}),
      complete,
      sdkModel: (inner) =>
        wrapLanguageModel({
          model: inner as LanguageModelV3,
          middleware: {
            specificationVersion: "v3",
            transformParams: async ({ params }) => sdkCallOptions(params, complete),
          },
        }),
    };
  }
}

/**
 * Whom a conversion is for: the SDK converts a prompt for a model, not for any (the URLs it downloads are
 * those its `supportedUrls` leave out; ai 7 makes a file id a reference of its provider), so a conversion
 * is reused for the same provider and model id only (a model given by id is a new object at each step).
 */
function converterOf(model: { readonly provider: string; readonly modelId: string }): string {
  return `${model.provider} ${model.modelId}`;
}

/**
 * A provider call's options, in one key order whichever way the step is made (through the SDK or on the
 * provider spec): a middleware that keys a cache by `JSON.stringify(params)` then finds a run's first
 * step under one key, whether it was made directly or not. The step's own keys first: on Node 20, keys
 * added after a spread copy cost microseconds each (V8 finds no map transition for them).
 *
 * A step without tools has no tool choice either, whichever way it is made: ai 7's `generateText` sends
 * `{ type: "auto" }` with no tools (ai 6 sends none, and so does a direct step). The OpenAI and Anthropic
 * providers drop it, but a middleware saw one step two ways, and a provider that passes the options on as
 * they are (the AI Gateway's) sent it.
 */
export function callOptions(
  prompt: LanguageModelV3Message[],
  tools: LanguageModelV3CallOptions["tools"],
  toolChoice: LanguageModelV3CallOptions["toolChoice"],
  abortSignal: AbortSignal | undefined,
  options: StepCallOptions,
): LanguageModelV3CallOptions {
  const offered = tools !== undefined && tools.length > 0 ? tools : undefined;
  return { prompt, tools: offered, toolChoice: offered && toolChoice, abortSignal, ...options };
}

/**
 * The options the SDK built for a provider call, through `callOptions` (the tool choice of a step without
 * tools, one key order), the prompt completed by `complete` (a cached run's earlier messages).
 */
function sdkCallOptions(
  params: LanguageModelV3CallOptions,
  complete: (prompt: LanguageModelV3Message[], options: StepCallOptions) => LanguageModelV3Message[],
): LanguageModelV3CallOptions {
  const { prompt, tools, toolChoice, abortSignal, ...built } = params;
  const listed = tools && inDefinitionOrder(tools);
  return callOptions(complete(prompt, built), listed, toolChoice, abortSignal, built);
}

/**
 * A model of a spec before V3 (the cache does not keep its prompts, and ai 6's `wrapLanguageModel` takes
 * V3 only) with each call's options through `callOptions` all the same: ai 7's `generateText` hands it
 * `toolChoice: auto` without tools, as it does any model. Its call options have the same keys.
 */
function throughCallOptions(model: LanguageModel): LanguageModel {
  if (typeof model !== "object") return model;
  const older = model as LanguageModelV3;
  const same = (prompt: LanguageModelV3Message[]) => prompt;
  const wrapped: LanguageModelV3 = {
    specificationVersion: older.specificationVersion,
    provider: older.provider,
    modelId: older.modelId,
    supportedUrls: older.supportedUrls,
    doGenerate: (params) => older.doGenerate(sdkCallOptions(params, same)),
    doStream: (params) => older.doStream(sdkCallOptions(params, same)),
  };
  return wrapped;
}

/**
 * The SDK's tool definitions with a function tool's keys in the order a direct step's have (see
 * `tool-definitions.ts`): ai 7 puts the schema before the description. The same values, in one order.
 */
function inDefinitionOrder(tools: NonNullable<LanguageModelV3CallOptions["tools"]>) {
  return tools.map((tool) => {
    if (tool.type !== "function" || !("description" in tool)) return tool;
    const { type, name, description, ...rest } = tool;
    return { type, name, description, ...rest };
  });
}

/**
 * The prompt's leading system messages, as the SDK makes them of a system string: exactly one. The cache
 * keeps the prompt without them (the system prompt may differ between steps) and a direct step puts them
 * back in front.
 */
export function systemMessages(system: string | undefined): LanguageModelV3Message[] {
  return system === undefined ? [] : [{ role: "system", content: system }];
}

/**
 * Whether every message is a user message of plain text (`runner.run("…")`'s prompt): what the SDK's
 * prompt validation would accept without looking further. Anything else goes through `generateText`.
 */
function onlyUserText(history: readonly ModelMessage[]): boolean {
  for (const message of history) {
    if (message.role !== "user" || typeof message.content !== "string") return false;
    for (const key in message) if (key !== "role" && key !== "content") return false;
  }
  return history.length > 0;
}

/**
 * Whether `history` is `sources` with at least one message appended, the first not a tool message. A run's own
 * history (`isRunHistory`) is only appended to, so for it the length and the last cached message tell;
 * any other array is compared message by message, so an edit anywhere in it is found.
 */
function extends_(history: readonly ModelMessage[], sources: readonly ModelMessage[]): boolean {
  const count = sources.length;
  if (history.length <= count || history[count]!.role === "tool") return false;
  if (count > 0 && history[count - 1] !== sources[count - 1]) return false;
  if (isRunHistory(history)) return true;
  for (let i = 0; i < count - 1; i++) if (history[i] !== sources[i]) return false;
  return true;
}
