import type { LanguageModel, ModelMessage } from "ai";
import type { ModelStepRequest } from "../../loop/ports/model-port.js";
import { markRunHistory } from "../../loop/run/run-history.js";
import type { AnyTool } from "../../tools/tool.js";
import type { ToolDelivery } from "../../tools/tool-delivery.js";
import { toProviderTools, type ProviderTools } from "../tool-definitions.js";
import { anthropicToolChanges } from "./anthropic-tool-changes.js";
import type { DeliveryForm } from "./delivery-form.js";
import { openAiToolSearch } from "./openai-tool-search.js";

/** A model object: a model given by id, resolved. */
type ResolvedModel = Exclude<LanguageModel, string>;

/** One step as the provider gets it: the history with the deliveries in it, and which tools go where. */
export interface DeliveredStep {
  /** The messages to send: the run's history, each delivery after the results that caused it. */
  readonly messages: readonly ModelMessage[];
  /** What the request's tool list declares (the form's own tools included), and every name the model may call. */
  readonly offered: ProviderTools;
  /** The tools of the request's tool list; deferred ones are known to the model from the messages. */
  readonly listed: readonly AnyTool[];
  /** The form in use (undefined: everything inline). */
  readonly form?: DeliveryForm;
  /** Said once per run when deferred delivery was asked for and the model's provider has no form for it. */
  readonly warning?: string;
}

/** The deferred form of a model's provider, from the AI SDK model's `provider` string (a resolved model). */
export function deliveryFormOf(model: ResolvedModel): DeliveryForm | undefined {
  const provider = model.provider;
  if (provider === "anthropic.messages") return anthropicToolChanges;
  if (provider === "openai.responses") return openAiToolSearch;
  return undefined;
}

/** What a run has been delivered so far. */
interface RunDelivery {
  /** The form its deliveries were made in. */
  readonly form: DeliveryForm;
  /** The history with the deliveries spliced in: appended to only, so the provider's cache keeps it. */
  readonly messages: ModelMessage[];
  /** How many history messages it holds, and the last of them (to tell the same run's history). */
  taken: number;
  last: ModelMessage | undefined;
  readonly delivered: Set<string>;
  sequence: number;
}

/**
 * Deferred delivery for one adapter (`withToolProviderDiscovery({ delivery: "deferred" })`): tools marked
 * `delivery: "deferred"` leave the request's tool list and reach the model in its provider's deferred form
 * ({@link DeliveryForm}), each change once, right after the tool results that caused it. Runs are told
 * apart by their history array, which a run only appends to; a history that is not the last one extended
 * (a resumed run) starts again, with every deferred tool delivered at its end. The form is the one of each
 * step's model, as it was resolved for that step (a model given by id: see `stepModel`).
 */
export class DeferredDelivery {
  private readonly runs = new WeakMap<readonly ModelMessage[], RunDelivery>();
  private readonly warned = new WeakSet<readonly ModelMessage[]>();
  private readonly splits = new WeakMap<readonly AnyTool[], Split>();

  constructor(private readonly delivery: ToolDelivery) {}

  /** One step of `model` (the step's resolved model), as its provider gets it. */
  step(request: ModelStepRequest, model: ResolvedModel): DeliveredStep {
    const form = this.delivery === "deferred" ? deliveryFormOf(model) : undefined;
    if (!form)
      return {
        messages: request.messages,
        offered: toProviderTools(request.tools),
        listed: request.tools,
        ...this.inline(request.messages, model),
      };
    const split = this.split(request.tools, form);
    const run = this.runOf(request.messages, form);
    for (let i = run.taken; i < request.messages.length; i++) run.messages.push(request.messages[i]!);
    run.taken = request.messages.length;
    run.last = request.messages.at(-1);
    const names = new Set(split.deferred.map((t) => t.name));
    const added = split.deferred.filter((t) => !run.delivered.has(t.name));
    const removed = [...run.delivered].filter((name) => !names.has(name));
    if (added.length > 0 || removed.length > 0) {
      run.messages.push(...form.deliver({ added, removed, sequence: ++run.sequence }));
      for (const name of removed) run.delivered.delete(name);
      for (const tool of added) run.delivered.add(tool.name);
    }
    return { messages: run.messages, offered: split.offered, listed: split.listed, form };
  }

  /** Deferred asked for, no form: the tools go inline and the run hears it once. */
  private inline(history: readonly ModelMessage[], model: ResolvedModel): { warning?: string } {
    if (this.delivery !== "deferred" || this.warned.has(history)) return {};
    this.warned.add(history);
    return {
      warning:
        `Deferred tool delivery was asked for, but the model's provider (${model.provider}) has no deferred form ` +
        "(Anthropic Messages and OpenAI Responses have one): discovered tools are offered inline, in the tool list.",
    };
  }

  /**
   * The run `history` belongs to; a new one (every deferred tool delivered again) for a history that is
   * not the last one extended, or when the step's model has another form than the run's deliveries so far
   * (a default provider that routes each call): those are in a form the new model does not read.
   */
  private runOf(history: readonly ModelMessage[], form: DeliveryForm): RunDelivery {
    const run = this.runs.get(history);
    const extended =
      run && history.length >= run.taken && (run.taken === 0 || history[run.taken - 1] === run.last);
    if (extended && run.form === form) return run;
    const fresh: RunDelivery = {
      form,
      messages: [],
      taken: 0,
      last: undefined,
      delivered: new Set(),
      sequence: 0,
    };
    markRunHistory(fresh.messages);
    this.runs.set(history, fresh);
    return fresh;
  }

  /**
   * A step's tools split into listed and deferred (kept per frozen tool list, as the registry hands it out,
   * for the form it was made for).
   */
  private split(tools: readonly AnyTool[], form: DeliveryForm): Split {
    let split = this.splits.get(tools);
    if (split?.form !== form) {
      const listed = Object.freeze(tools.filter((t) => t.delivery !== "deferred"));
      const definitions = toProviderTools(listed).definitions;
      split = {
        form,
        listed,
        deferred: tools.filter((t) => t.delivery === "deferred"),
        offered: {
          definitions: [...definitions, ...form.providerTools],
          names: new Set(tools.map((t) => t.name)),
        },
      };
      if (Object.isFrozen(tools)) this.splits.set(tools, split);
    }
    return split;
  }
}

interface Split {
  readonly form: DeliveryForm;
  readonly listed: readonly AnyTool[];
  readonly deferred: readonly AnyTool[];
  readonly offered: ProviderTools;
}
