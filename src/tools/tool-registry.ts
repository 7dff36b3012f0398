import type { AnyTool } from "./tool.js";

/** A binding that a newer instance with the same name took over. */
export interface ToolReplacement {
  readonly previous: AnyTool;
  readonly next: AnyTool;
}

/** What one {@link ToolRegistry.add} changed. */
export interface ToolAddOutcome {
  /** Names new to the registry. */
  readonly added: AnyTool[];
  /** Same name, different instance: the newest state wins. */
  readonly replaced: ToolReplacement[];
  /** The same instance's method found again: bound once, nothing changes. */
  readonly alreadyBound: AnyTool[];
  /** Injected tools dropped to stay within the budget, least recently used first. */
  readonly evicted: AnyTool[];
}

/** Options of {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /** Most injected tools held at once; the least recently used go first. Unlimited when absent. */
  readonly maxInjectedTools?: number;
}

/**
 * The tools of one run, by name. Tools given up front are permanent; tools added later ("injected") are
 * subject to the budget, with recency refreshed when they are added again or called.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  private readonly permanent = new Set<string>();
  // Injected names, least recently used first (Map keeps insertion order; a touch re-inserts).
  private readonly recency = new Map<string, true>();

  constructor(
    initial: readonly AnyTool[] = [],
    private readonly options: ToolRegistryOptions = {},
  ) {
    for (const tool of initial) {
      this.tools.set(tool.name, tool);
      this.permanent.add(tool.name);
    }
  }

  /** Every tool, in the order it first arrived. */
  all(): AnyTool[] {
    return [...this.tools.values()];
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  get size(): number {
    return this.tools.size;
  }

  /** Adds (injects) tools, then enforces the budget. */
  add(tools: readonly AnyTool[]): ToolAddOutcome {
    const outcome: ToolAddOutcome = { added: [], replaced: [], alreadyBound: [], evicted: [] };
    for (const tool of tools) {
      const existing = this.tools.get(tool.name);
      if (existing && sameBinding(existing, tool)) {
        outcome.alreadyBound.push(existing);
      } else {
        if (existing) outcome.replaced.push({ previous: existing, next: tool });
        else outcome.added.push(tool);
        this.tools.set(tool.name, tool);
      }
      this.markUsed(tool.name);
    }
    outcome.evicted.push(...this.enforceBudget());
    return outcome;
  }

  /** Removes tools by name; returns the ones that were there. */
  remove(names: readonly string[]): AnyTool[] {
    const removed: AnyTool[] = [];
    for (const name of names) {
      const tool = this.tools.get(name);
      if (!tool) continue;
      this.tools.delete(name);
      this.permanent.delete(name);
      this.recency.delete(name);
      removed.push(tool);
    }
    return removed;
  }

  /** Refreshes an injected tool's recency (called when the model uses it). */
  markUsed(name: string): void {
    if (this.permanent.has(name) || !this.tools.has(name)) return;
    this.recency.delete(name);
    this.recency.set(name, true);
  }

  private enforceBudget(): AnyTool[] {
    const max = this.options.maxInjectedTools;
    if (max === undefined) return [];
    const evicted: AnyTool[] = [];
    for (const name of this.recency.keys()) {
      if (this.recency.size <= max) break;
      evicted.push(this.tools.get(name)!);
      this.tools.delete(name);
      this.recency.delete(name);
    }
    return evicted;
  }
}

function sameBinding(a: AnyTool, b: AnyTool): boolean {
  if (a === b) return true;
  return (
    a.origin !== undefined &&
    a.origin.instance === b.origin?.instance &&
    a.origin.methodName === b.origin.methodName
  );
}
