// What one Claude Code turn spent, per model. A `result` message's `usage` covers the agent loop's own
// model calls of the turn only; its `modelUsage` covers every model call of the process (the loop's, Task
// subagents', helper calls such as a session title, often on a smaller model), by model, and is
// cumulative across the turns of one `query()`. So a turn's spend is, per model, `modelUsage` minus what
// the previous result of the same process said.
import { emptyUsage } from "../events/token-usage.js";
import type { ConversationModelUsage } from "../loop/ports/conversation-port.js";
import type { TokenUsage } from "../loop/ports/model-port.js";
import type { TurnEnd } from "./claude-sdk.js";

/** A turn's tokens: the agent loop's model's, and each other model's. */
export interface TurnUsage {
  readonly usage: TokenUsage;
  readonly modelId?: string;
  readonly otherModels?: readonly ConversationModelUsage[];
}

const FIELDS = ["inputTokens", "outputTokens", "cachedInputTokens", "reasoningTokens"] as const;

/** The running `modelUsage` totals of one Claude Code process, turned into each turn's own spend. */
export class ClaudeTurnUsage {
  private before: Readonly<Record<string, TokenUsage>> = {};

  /**
   * The spend of the turn `end` closed, with `model` (the agent loop's) first. Without `modelUsage` (a
   * result that carries none or only zeros) it is the turn's `usage`, as the loop's model.
   */
  of(end: TurnEnd, model: string | undefined): TurnUsage {
    const named = model === undefined ? {} : { modelId: model };
    const totals = end.models;
    if (!totals || !Object.values(totals).some(spentAny)) return { usage: end.usage, ...named };
    const spent = Object.entries(totals).map(([id, now]) => ({
      modelId: id,
      usage: since(this.before[id], now),
    }));
    this.before = totals;
    const own = spent.find((s) => s.modelId === model);
    const otherModels = spent.filter((s) => s !== own && spentAny(s.usage));
    return {
      usage: own?.usage ?? emptyUsage(),
      ...named,
      ...(otherModels.length > 0 ? { otherModels } : {}),
    };
  }
}

/** `now` less `before`; all of `now` when a count went down (Claude Code started its totals over). */
function since(before: TokenUsage | undefined, now: TokenUsage): TokenUsage {
  const written = (u: TokenUsage) => u.cacheWriteInputTokens ?? 0;
  if (!before || FIELDS.some((f) => now[f] < before[f]) || written(now) < written(before)) return now;
  return {
    inputTokens: now.inputTokens - before.inputTokens,
    outputTokens: now.outputTokens - before.outputTokens,
    cachedInputTokens: now.cachedInputTokens - before.cachedInputTokens,
    reasoningTokens: now.reasoningTokens - before.reasoningTokens,
    ...(written(now) > written(before) ? { cacheWriteInputTokens: written(now) - written(before) } : {}),
  };
}

function spentAny(usage: TokenUsage): boolean {
  return FIELDS.some((f) => usage[f] > 0);
}
