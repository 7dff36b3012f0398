// Makes a run durable on Restate: each model step and each tool call is a journaled `ctx.run` step, so a
// process that dies mid-run resumes from the journal, and a completed tool call never runs twice.
import { AsyncLocalStorage } from "node:async_hooks";
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

const currentKey = new AsyncLocalStorage<string>();

/**
 * The idempotency key of the tool call running now: the same on every attempt of one call (a retry after
 * a crash included), different for every other call. A tool whose effect leaves the process (a payment)
 * hands it to the system it calls, which applies each key once.
 */
export function idempotencyKey(): string {
  const key = currentKey.getStore();
  if (key === undefined) throw new Error("idempotencyKey() is read outside a journaled tool call");
  return key;
}

/**
 * Journals every tool call: a call whose result is journaled never runs again, and the journal keeps what
 * it returned. On replay the recorded value comes back, with providers looked up again through `resolve`,
 * so discovery binds the same tools as the first time. A call that died before its result was journaled
 * runs again, with the same {@link idempotencyKey} (`scope` names the run: its workflow id).
 */
export function journaledTools(
  journal: Journal,
  resolve: (className: string, id: string) => unknown,
  scope: string,
): ToolMiddleware {
  return async (call, next) => {
    let live: unknown;
    let ran = false;
    const recorded = await journal.run(
      `tool ${call.tool.name} ${call.context.toolCallId}`,
      async (): Promise<Recorded> => {
        live = await currentKey.run(`${scope}/${call.context.toolCallId}`, next);
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
