// Makes a run durable on Restate: each model step and each tool call is a journaled `ctx.run` step, so a
// process that dies mid-run resumes from the journal, and a completed tool call never runs twice.
import type { ModelAdapter, ModelStepResult, ToolMiddleware } from "entity-tools";
import { isToolProvider } from "entity-tools";

/** The part of Restate's context used here (`ctx.run` journals a step's result). */
export interface Journal {
  run<T>(name: string, action: () => Promise<T>): PromiseLike<T>;
}

/** A model adapter whose steps are journaled: on replay the recorded step is returned, not re-asked. */
export function journaledModel(
  journal: Journal,
  adapter: ModelAdapter,
  beforeLiveStep: (step: number) => void = () => {},
): ModelAdapter {
  let step = 0;
  return {
    supportsDynamicTools: adapter.supportsDynamicTools,
    step: async (request) => {
      const n = ++step;
      return journal.run(`model step ${n}`, async (): Promise<ModelStepResult> => {
        beforeLiveStep(n);
        const { signal: _signal, ...rest } = request;
        return JSON.parse(JSON.stringify(await adapter.step(rest))) as ModelStepResult;
      });
    },
  };
}

/** What the journal records of a tool's return value: providers by class and id, anything else as JSON. */
type Recorded =
  | { readonly providers: { className: string; id: string }[]; readonly array: boolean }
  | { readonly value: unknown };

/**
 * Journals every tool call: the tool runs once, and the journal keeps what it returned. On replay the
 * recorded value comes back, with providers looked up again through `resolve`, so discovery binds the
 * same tools as the first time.
 */
export function journaledTools(
  journal: Journal,
  resolve: (className: string, id: string) => unknown,
): ToolMiddleware {
  return async (call, next) => {
    let live: unknown;
    let ran = false;
    const recorded = await journal.run(
      `tool ${call.tool.name} ${call.context.toolCallId}`,
      async (): Promise<Recorded> => {
        live = await next();
        ran = true;
        return record(live);
      },
    );
    if (ran) return live;
    if (!("providers" in recorded)) return recorded.value;
    const found = recorded.providers.map((p) => resolve(p.className, p.id));
    return recorded.array ? found : found[0];
  };
}

function record(value: unknown): Recorded {
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 0 && list.every((v) => isToolProvider(v))) {
    const providers = list.map((p) => ({
      className: p.constructor.name,
      id: String((p as { id: unknown }).id),
    }));
    return { providers, array: Array.isArray(value) };
  }
  return { value: value === undefined ? null : JSON.parse(JSON.stringify(value)) };
}
