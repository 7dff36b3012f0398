import type { ModelMessage } from "ai";
import type { ModelStepResult } from "../ports/model-port.js";

/** A model response whose calls each have an id no other call of the conversation has. */
export interface DistinctCalls {
  readonly response: ModelStepResult;
  /** The calls that repeat an id of an earlier call of the same response: new id → the id they repeated. */
  readonly repeats: ReadonlyMap<string, string>;
}

/**
 * Makes every call's id unique in the conversation, in a response's calls and in its messages alike: the
 * conversation goes back to the provider at the next step, and the Anthropic Messages API refuses a request
 * in which two `tool_use` blocks share an id (`tool_use ids must be unique`), so a model (or a provider in
 * front of it, or an earlier model of a continued conversation) that repeats an id would end the run there.
 * A call whose id an earlier response used is a new call: it gets `<id>_<n>` and runs. An id a provider
 * would refuse (see `SENDABLE_ID`) is written with `_` for what it may not hold, cut to 34 characters. A call that repeats
 * an id of the same response gets one too, and is named in `repeats`: it is not run (the same call sent twice
 * must not run twice), and its result says so. One per attempt: it reads the ids of the attempt's history
 * once, as the history grows (it is appended to only), so a step costs the same at step 400 as at step 2.
 */
export class DistinctCallIds {
  private readonly used = new Set<string>();
  private read = 0;

  /** `response` with unique call ids, its calls and messages being about to follow `history`. */
  distinct(response: ModelStepResult, history: readonly ModelMessage[]): DistinctCalls {
    const { used } = this;
    for (; this.read < history.length; this.read++) {
      const message = history[this.read]!;
      if (message.role === "assistant" && Array.isArray(message.content))
        for (const part of message.content) if (part.type === "tool-call") used.add(part.toolCallId);
    }
    if (allFresh(response, used)) return { response, repeats: NO_REPEATS };
    return renamedCalls(response, used);
  }
}

/**
 * An id every provider takes back: Anthropic's `tool_use` id pattern, and at most the 40 characters OpenAI
 * takes for a call's id. Other providers' ids (`functions.lookup:0`, `""`) reach a continued conversation.
 */
const SENDABLE_ID = /^[a-zA-Z0-9_-]{1,40}$/;

const NO_REPEATS: ReadonlyMap<string, string> = new Map();

/**
 * Whether every call's id is sendable, unused before and once in its response: the common case, checked
 * without copying the ids used so far, which grow with the run.
 */
function allFresh(response: ModelStepResult, used: ReadonlySet<string>): boolean {
  const calls = response.toolCalls;
  const own = calls.length > 1 ? new Set<string>() : undefined; // most steps make one call
  for (const { toolCallId: id } of calls) {
    if (used.has(id) || own?.has(id) || !SENDABLE_ID.test(id)) return false;
    own?.add(id);
  }
  return true;
}

function renamedCalls(response: ModelStepResult, used: ReadonlySet<string>): DistinctCalls {
  // The ids no new one may take: the conversation's (`used`, not copied) and this response's own.
  const own = new Set(response.toolCalls.map((c) => c.toolCallId));
  const taken = { has: (id: string) => used.has(id) || own.has(id), add: (id: string) => own.add(id) };
  const next = new Map<string, number>(); // per id, the first n of `<id>_<n>` still to try
  const renamed = new Map<string, string>(); // `${id}#${occurrence}` → new id
  const repeats = new Map<string, string>();
  const seen = new Map<string, number>();
  for (const { toolCallId: id } of response.toolCalls) {
    const occurrence = (seen.get(id) ?? 0) + 1;
    seen.set(id, occurrence);
    if (occurrence === 1 && !used.has(id) && SENDABLE_ID.test(id)) continue;
    const base = (id.replace(/[^a-zA-Z0-9_-]/g, "_") || "call").slice(0, 34);
    let fresh = base;
    if (base === id || taken.has(base)) {
      let n = next.get(base) ?? 2;
      while (taken.has(`${base}_${n}`)) n++;
      next.set(base, n + 1);
      fresh = `${base}_${n}`;
    }
    taken.add(fresh);
    renamed.set(`${id}#${occurrence}`, fresh);
    if (occurrence > 1) repeats.set(fresh, id);
  }
  if (renamed.size === 0) return { response, repeats };
  return {
    response: {
      ...response,
      toolCalls: inOrder(response.toolCalls, renamed, (call, toolCallId) => ({ ...call, toolCallId })),
      responseMessages: response.responseMessages.map((message) =>
        message.role === "assistant" && Array.isArray(message.content)
          ? {
              ...message,
              content: inOrder(message.content, renamed, (part, toolCallId) =>
                part.type === "tool-call" ? { ...part, toolCallId } : part,
              ),
            }
          : message,
      ),
    },
    repeats,
  };
}

/** `items` with the n-th item of each id that `renamed` names given its new id. */
function inOrder<T>(
  items: readonly T[],
  renamed: ReadonlyMap<string, string>,
  rename: (item: T, id: string) => T,
): T[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const { type, toolCallId: id } = item as { type?: string; toolCallId?: unknown };
    if (typeof id !== "string" || (type !== undefined && type !== "tool-call")) return item;
    const occurrence = (seen.get(id) ?? 0) + 1;
    seen.set(id, occurrence);
    const fresh = renamed.get(`${id}#${occurrence}`);
    return fresh === undefined ? item : rename(item, fresh);
  });
}
