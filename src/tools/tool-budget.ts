import { estimateDefinitionTokens } from "./definition-tokens.js";
import type { AnyTool } from "./tool.js";

/** The limits on the injected tools a run holds at once; a limit left out is no limit. */
export interface ToolBudgetLimits {
  /** Most injected tools held at once. */
  readonly maxInjectedTools?: number;
  /** Most definition tokens (see `estimateDefinitionTokens`) the injected tools add to a request. */
  readonly maxInjectedTokens?: number;
}

/** What one addition of tools (one tool result's) leaves out: the budget took the ones before them. */
export interface BudgetSplit {
  readonly admitted: readonly AnyTool[];
  readonly skipped: readonly AnyTool[];
}

/**
 * The tool budget, in one place for every path that adds tools (discovery and other strategies, dynamic
 * sources, resume) and every limit:
 *
 * - An addition is taken in its own order, one entity at a time (the tools of one provider instance, or
 *   one tool of no provider), whole, while it fits the budget with the entities before it. The first
 *   entity that does not fit and every one after it are skipped, so a later entity never takes the
 *   place of an earlier, better-ranked one. An entity larger than the whole budget, when it comes first,
 *   gets the first of its tools that fit.
 * - What is admitted makes room by dropping the least recently used injected tools of earlier additions
 *   (see `ToolRegistry`); an addition never drops its own tools, so repeating it binds the same ones.
 */
export class ToolBudget implements ToolBudgetCheck {
  constructor(private readonly limits: ToolBudgetLimits) {}

  /** A running total of held tools, measured against this budget. */
  load(): BudgetLoad {
    return new BudgetLoad(this.limits);
  }

  // The last array `fits` measured: a strategy asks again after each entity it pushes to one array, so
  // only the tools pushed since are added (asking from the start each time was quadratic in the budget).
  private measured: { tools: readonly AnyTool[]; counted: number; load: BudgetLoad } | undefined;

  /** Whether {@link admit} takes all of `tools` (an array only grown by `push` is measured once). */
  fits(tools: readonly AnyTool[]): boolean {
    let m = this.measured;
    if (!m || m.tools !== tools || m.counted > tools.length)
      m = this.measured = { tools, counted: 0, load: this.load() };
    while (m.counted < tools.length) m.load.add(tools[m.counted++]!);
    return !m.load.over();
  }

  /** The leading entities of `tools` that fit the budget together, and the rest. */
  admit(tools: readonly AnyTool[]): BudgetSplit {
    this.measured = undefined; // the addition `fits` measured is now added: it need not be kept
    const load = this.load();
    let taken = 0;
    for (const end of entityEnds(tools)) {
      for (let i = taken; i < end; i++) load.add(tools[i]!);
      if (load.over()) {
        if (taken === 0) taken = leadingFit(tools, this.load());
        break;
      }
      taken = end;
    }
    return { admitted: tools.slice(0, taken), skipped: tools.slice(taken) };
  }
}

/**
 * What a strategy may ask of the run's tool budget before it builds tools: whether an addition would be
 * bound whole. A strategy that finds many entities can stop building at the first one that does not fit
 * (the budget would skip it and every one after it) and report how many it left out
 * (`ToolInjectionResult.unbound`).
 */
export interface ToolBudgetCheck {
  /** Whether adding `tools` (one addition, in this order) binds them all. */
  fits(tools: readonly AnyTool[]): boolean;
}

/** How much of the budget a set of tools uses. */
export class BudgetLoad {
  private tools = 0;
  private tokens = 0;

  constructor(private readonly limits: ToolBudgetLimits) {}

  add(tool: AnyTool): void {
    this.tools++;
    this.tokens += this.tokensOf(tool);
  }

  remove(tool: AnyTool): void {
    this.tools--;
    this.tokens -= this.tokensOf(tool);
  }

  over(): boolean {
    const { maxInjectedTools, maxInjectedTokens } = this.limits;
    return (
      (maxInjectedTools !== undefined && this.tools > maxInjectedTools) ||
      (maxInjectedTokens !== undefined && this.tokens > maxInjectedTokens)
    );
  }

  /** A tool's definition tokens, counted only under a token limit (no cost per tool without one). */
  private tokensOf(tool: AnyTool): number {
    return this.limits.maxInjectedTokens === undefined ? 0 : estimateDefinitionTokens(tool);
  }
}

/** How many entities `tools` holds, counted as {@link ToolBudget.admit} takes them. */
export function entityCount(tools: readonly AnyTool[]): number {
  let count = 0;
  for (const _end of entityEnds(tools)) count++;
  return count;
}

/** The index after each entity of `tools`: a run of tools bound to one provider instance, or one tool. */
function* entityEnds(tools: readonly AnyTool[]): Generator<number> {
  let i = 0;
  while (i < tools.length) {
    const instance = tools[i]!.origin?.instance;
    i++;
    if (instance !== undefined) while (i < tools.length && tools[i]!.origin?.instance === instance) i++;
    yield i;
  }
}

/** How many of the first tools fit an empty budget, one by one. */
function leadingFit(tools: readonly AnyTool[], load: BudgetLoad): number {
  let taken = 0;
  for (const tool of tools) {
    load.add(tool);
    if (load.over()) break;
    taken++;
  }
  return taken;
}
