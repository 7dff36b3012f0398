import { ForkableMap } from "./forkable-map.js";
import { providerKeyOf } from "./provider-identity.js";
import type { AnyTool } from "./tool.js";
import { ToolBudget, type BudgetLoad, type ToolBudgetCheck, type ToolBudgetLimits } from "./tool-budget.js";
import { toolMethodOf } from "./tool-methods.js";
import { disambiguatedToolName } from "./tool-names.js";

/** A binding that a newer instance with the same name took over. */
export interface ToolReplacement {
  readonly previous: AnyTool;
  readonly next: AnyTool;
}

/** A tool that got another name because its natural one belongs to a different binding. */
export interface ToolRename {
  readonly requested: string;
  readonly name: string;
}

/** What one {@link ToolRegistry.add} changed. */
export interface ToolAddOutcome {
  /** Names new to the registry. */
  readonly added: AnyTool[];
  /** Same name, different instance: the newest state wins. */
  readonly replaced: ToolReplacement[];
  /** The same instance's method found again: bound once, nothing changes. */
  readonly alreadyBound: AnyTool[];
  /** Injected tools of earlier additions dropped to make room, least recently used first. */
  readonly evicted: AnyTool[];
  /**
   * Tools of this addition not bound: the budget holds the ones before them (see {@link ToolBudget}).
   * Adding the same tools again skips the same ones.
   */
  readonly skipped: readonly AnyTool[];
  /** Tools added under another name than they asked for (their name was another binding's). */
  readonly renamed: ToolRename[];
}

/** Options of {@link ToolRegistry}: the budget of its injected tools (unlimited when absent). */
export type ToolRegistryOptions = ToolBudgetLimits;

/**
 * The tools of one run, by name. Tools given up front are permanent; tools added later ("injected") are
 * subject to the budget ({@link ToolBudget}), with recency refreshed when they are added again or called.
 *
 * A name is the identity of exactly one binding — (provider class, typed id, method) for a provider's
 * tool, the name itself for any other tool — for the whole run, evicted tools included. The newest
 * instance of one binding replaces the older one; a different binding that asks for a taken name gets a
 * deterministic other name (see {@link ToolAddOutcome.renamed}), never the other binding's.
 */
export class ToolRegistry {
  // Forkable (see `fork`): shared with a fork until either side changes one.
  private tools = new ForkableMap<string, AnyTool>();
  private permanent = new ForkableMap<string, true>();
  private owners = new ForkableMap<string, string>(); // name → binding key, for the whole run
  private nameOf = new ForkableMap<string, string>(); // binding key → name
  private classIds = new ForkableMap<Function, number>();
  // Injected names, least recently used first (Map keeps insertion order; a touch re-inserts).
  private recency = new Map<string, true>();
  private readonly budget: ToolBudget;
  // What the injected tools (the names in `recency`) use of the budget.
  private readonly held: BudgetLoad;
  // What `all()` and `names()` hand out, built again only after a change: a step asks for them whatever
  // changed, and copying thousands of discovered tools at every step made a step's cost grow with them.
  private snapshot: { readonly tools: readonly AnyTool[]; readonly names: readonly string[] } | undefined;

  constructor(
    initial: readonly AnyTool[] = [],
    private readonly options: ToolRegistryOptions = {},
  ) {
    this.budget = new ToolBudget(options);
    this.held = this.budget.load();
    for (const tool of initial) {
      this.reserve(tool.name, this.bindingKey(tool));
      this.tools.set(tool.name, tool);
      this.permanent.set(tool.name, true);
    }
  }

  /**
   * A registry that holds what this one holds (tools, names, budget), whose changes from now on are its
   * own, as this one's are. The MCP server's 2026-07-28 calls each fork the registry of the server's
   * tools, made once, instead of registering thousands of tools per call. Nothing is copied until a side
   * changes something, and then only what it changes (see `ForkableMap`).
   */
  fork(): ToolRegistry {
    const fork = new ToolRegistry([], this.options);
    fork.tools = this.tools.fork();
    fork.permanent = this.permanent.fork();
    fork.owners = this.owners.fork();
    fork.nameOf = this.nameOf.fork();
    fork.classIds = this.classIds.fork();
    fork.recency = new Map(this.recency); // the injected tools only: as many as the budget holds
    for (const name of fork.recency.keys()) fork.held.add(this.tools.get(name)!);
    fork.snapshot = this.snapshot; // frozen: valid until the fork changes
    return fork;
  }

  /** The budget of its injected tools, for a strategy to check an addition against before building it. */
  get toolBudget(): ToolBudgetCheck {
    return this.budget;
  }

  /** Every tool, in the order it first arrived (the same frozen array until the registry changes). */
  all(): readonly AnyTool[] {
    return this.current().tools;
  }

  /** Every tool's name, in the order of {@link all}. */
  names(): readonly string[] {
    return this.current().names;
  }

  private current(): { readonly tools: readonly AnyTool[]; readonly names: readonly string[] } {
    this.snapshot ??= {
      tools: Object.freeze([...this.tools.values()]),
      names: Object.freeze([...this.tools.keys()]),
    };
    return this.snapshot;
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  get size(): number {
    return this.tools.size;
  }

  /**
   * Adds (injects) tools, as one addition: the budget takes its leading entities that fit and skips the
   * rest, then drops the least recently used tools of earlier additions to make room.
   */
  add(tools: readonly AnyTool[]): ToolAddOutcome {
    const { admitted, skipped } = this.budget.admit(this.firstOfEachBinding(tools));
    const outcome: ToolAddOutcome = {
      added: [],
      replaced: [],
      alreadyBound: [],
      evicted: [],
      renamed: [],
      skipped,
    };
    for (const requested of admitted) {
      const tool = this.named(requested, outcome.renamed);
      const existing = this.tools.get(tool.name);
      if (existing && sameBinding(existing, tool)) {
        outcome.alreadyBound.push(existing);
      } else {
        if (existing) outcome.replaced.push({ previous: existing, next: tool });
        else outcome.added.push(tool);
        this.tools.set(tool.name, tool);
        this.snapshot = undefined;
        if (!this.permanent.has(tool.name)) {
          if (existing && this.recency.has(tool.name)) this.held.remove(existing);
          this.held.add(tool);
        }
      }
      this.markUsed(tool.name);
    }
    this.enforceBudget(outcome.evicted);
    return outcome;
  }

  /**
   * Makes `tools` the permanent tools, in this order and in place of the ones given before; the injected
   * tools stay as they are, after them (one of them under a name now permanent gives way). The registry is
   * the same object: what a call still running adds lands in it. A 2025-11-25 MCP session's configured
   * tools are bound again this way when a schema module is registered.
   */
  replacePermanent(tools: readonly AnyTool[]): void {
    const next = new Map<string, AnyTool>();
    for (const tool of tools) {
      this.reserve(tool.name, this.bindingKey(tool));
      next.set(tool.name, tool);
    }
    for (const name of this.tools.keys()) {
      if (this.permanent.has(name)) continue;
      const tool = this.tools.get(name)!;
      if (!next.has(name)) next.set(name, tool);
      else if (this.recency.delete(name)) this.held.remove(tool);
    }
    this.tools = new ForkableMap(next);
    this.permanent = new ForkableMap(new Map(tools.map((t) => [t.name, true as const])));
    this.snapshot = undefined;
  }

  /** Removes tools by name; returns the ones that were there. */
  remove(names: readonly string[]): AnyTool[] {
    const removed: AnyTool[] = [];
    for (const name of names) {
      const tool = this.tools.get(name);
      if (!tool) continue;
      this.tools.delete(name);
      this.snapshot = undefined;
      this.permanent.delete(name);
      if (this.recency.delete(name)) this.held.remove(tool);
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

  /**
   * `tools` with each binding once: of two instances of one binding in one addition (a strategy's result
   * that held both) the first is kept and the later one dropped, the rule discovery follows within one
   * result (across additions the newest state wins), so the budget counts it once and the outcome reports
   * it once. By name first: only tools that ask for one name can share a binding.
   */
  private firstOfEachBinding(tools: readonly AnyTool[]): readonly AnyTool[] {
    if (tools.length < 2) return tools;
    const kept = new Map<string, AnyTool>();
    const out: AnyTool[] = [];
    for (const tool of tools) {
      const first = kept.get(tool.name);
      if (first && this.bindingKey(first) === this.bindingKey(tool)) continue;
      if (!first) kept.set(tool.name, tool);
      out.push(tool);
    }
    return out.length === tools.length ? tools : out;
  }

  /** `tool` under the name its binding owns, a fresh name when its own belongs to another binding. */
  private named(tool: AnyTool, renamed: ToolRename[]): AnyTool {
    const key = this.bindingKey(tool);
    let name = this.nameOf.get(key) ?? tool.name;
    const hashed = hashedIdentityOf(tool);
    for (let attempt = 1; this.owners.has(name) && this.owners.get(name) !== key; attempt++) {
      name = disambiguatedToolName(tool.name, hashed, attempt, toolMethodOf(tool)?.metadata.name);
    }
    this.reserve(name, key);
    if (name === tool.name) return tool;
    renamed.push({ requested: tool.name, name });
    return { ...tool, name };
  }

  private reserve(name: string, key: string): void {
    if (this.owners.get(name) === key && this.nameOf.get(key) === name) return; // kept shared with a fork
    this.owners.set(name, key);
    this.nameOf.set(key, name);
  }

  /**
   * What a name stands for: the provider binding (the provider's key and the method), or, for tools
   * without one, the name itself. The class object is part of it too: two classes that are both named
   * `Customer` (no generated module told them apart) are still two bindings here.
   */
  private bindingKey(tool: AnyTool): string {
    const origin = tool.origin;
    if (origin?.identity === undefined) return `tool|${tool.name}`;
    let classId = this.classIds.get(origin.providerClass);
    if (classId === undefined) {
      classId = this.classIds.size + 1;
      this.classIds.set(origin.providerClass, classId);
    }
    return `${classId}|${providerKeyOf(origin.identity)}|${origin.methodName}`;
  }

  /** Drops the least recently used injected tools while the budget is exceeded, into `evicted`. */
  private enforceBudget(evicted: AnyTool[]): void {
    for (const name of this.recency.keys()) {
      if (!this.held.over()) break;
      const tool = this.tools.get(name)!;
      evicted.push(tool);
      this.tools.delete(name);
      this.snapshot = undefined;
      this.recency.delete(name);
      this.held.remove(tool);
    }
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

/** A binding's identity that is the same in every process (class names, not class objects), for hashing. */
function hashedIdentityOf(tool: AnyTool): string {
  const origin = tool.origin;
  return origin?.identity ? `${providerKeyOf(origin.identity)}|${origin.methodName}` : tool.name;
}
