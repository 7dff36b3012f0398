import { CostLedger } from "./cost-ledger.js";
import type { RunCost, SnapshotCost } from "./run-cost.js";
import type { AnyTool } from "../tools/tool.js";
import type { Pricing } from "./pricing.js";
import { providerKeyOf, type ProviderIdentity } from "../tools/provider-identity.js";
import { countEvent, emptyCounters, type RunCounters } from "./run-counters.js";
import { newRunId } from "./run-id.js";
import type { RunEventInit, ToolLoopEvent, ToolLoopObserver } from "./tool-loop-event.js";
import type { UsageProblem } from "./token-usage.js";

/** What a run is doing while an observer's scope is active: a step's model call, or one tool call. */
export type ScopeTarget = { readonly kind: "step" } | { readonly kind: "tool"; readonly toolCallId: string };

/**
 * Runs `work` inside an observer's context for it (telemetry makes the step's or the call's span the
 * active one, so spans the AI SDK or a tool opens nest under it). Must return what `work` returns.
 */
export type RunScope = <T>(runId: string, target: ScopeTarget, work: () => Promise<T>) => Promise<T>;

/** Options of {@link RunEvents}. */
export interface RunEventsOptions {
  /** Prices: the run keeps its cost (see `cost`). */
  readonly pricing?: Pricing;
  readonly scope?: RunScope;
  /** The run's id, when it was made before the channel (a run log names its file by it); else a new one. */
  readonly runId?: string;
}

/** The event channel of one run: stamps the run id, keeps the counters (and the cost), and notifies observers. */
export class RunEvents {
  /** The run's one identity (see run-id.ts): its events', its snapshots' and its run log file's. */
  readonly runId: string;
  readonly counters: RunCounters = emptyCounters();
  /** The providers `counters.providersDiscovered` counted, by `providerKeyOf` (see `discovered`). */
  private readonly found = new Set<string>();
  private readonly ledger: CostLedger | undefined;
  /** The models whose unknown usage a `ModelWarning` named (once per run and model). */
  private readonly unknownUsage = new Set<string | undefined>();

  constructor(
    private readonly observers: readonly ToolLoopObserver[],
    private readonly options: RunEventsOptions = {},
  ) {
    this.ledger = options.pricing && new CostLedger(options.pricing);
    this.runId = options.runId ?? newRunId();
  }

  /**
   * Whether anyone reads the run's events (an observer, or the cost ledger): an event that nothing counts
   * and that costs something to build (a response's) is built only then.
   */
  get observed(): boolean {
    return this.observers.length > 0 || this.ledger !== undefined;
  }

  /** `work` (a model call, a tool call) inside the observers' scope for it, if one was given. */
  within<T>(target: ScopeTarget, work: () => Promise<T>): Promise<T> {
    const scope = this.options.scope;
    return scope ? scope(this.runId, target, work) : work();
  }

  /** The run's cost so far; undefined without pricing. */
  get cost(): RunCost | undefined {
    return this.ledger?.result();
  }

  /** USD of this call's own model calls (a resumed snapshot's not included); undefined without pricing. */
  get callCost(): number | undefined {
    return this.ledger?.callTotal();
  }

  /** The run's cost so far as its snapshot carries it; undefined without pricing. */
  get savedCost(): SnapshotCost | undefined {
    return this.ledger?.saved();
  }

  /**
   * A resumed or continued run goes on from its snapshot's cost, before any of its events: its `cost` is
   * then the whole run's, as its `usage` is. Nothing without pricing.
   */
  restoreCost(saved: SnapshotCost): void {
    this.ledger?.restore(saved);
  }

  /**
   * The discovered tools a resumed or continued run re-bound from its snapshot, with no event: the cost
   * attributes the requests that offer them and their calls to their providers, as a discovery's.
   */
  rebound(restored: readonly AnyTool[]): void {
    this.ledger?.rebound(restored);
  }

  /**
   * One `ToolProviderDiscovered` per provider, built only when someone observes the run (or prices it): a
   * tool that returns 1 000 providers then builds no 1 000 events nobody reads. `providersDiscovered` counts
   * each provider identity once in the run: one found again (a restart's new attempt binds it anew, or a
   * later call binds it again after the budget evicted it, or as another instance) has its event again,
   * not another count.
   */
  discovered<T>(
    providers: readonly T[],
    identityOf: (provider: T) => ProviderIdentity,
    event: (provider: T, identity: ProviderIdentity) => RunEventInit,
  ): void {
    const observed = this.observed;
    for (const provider of providers) {
      const identity = identityOf(provider);
      const key = providerKeyOf(identity);
      if (!this.found.has(key)) {
        this.found.add(key);
        this.counters.providersDiscovered++;
      }
      if (observed) this.emit(event(provider, identity));
    }
  }

  emit(init: RunEventInit): void {
    if (!this.observed) {
      // Nobody reads the event: only the counters move (they read the fields the init has). Stamping
      // a copy of every event of every step for nobody was a few per cent of a step (issue 46).
      countEvent(this.counters, init as ToolLoopEvent);
      return;
    }
    // Stamped in place: every emitter hands over a fresh object it keeps no use of, and a copy of each
    // event cost 0.1–0.2 µs, 2–4 % of a step with an observer (issue 44: the run log). An init
    // that cannot take a key (frozen) is stamped on a copy; not `{ ...init, runId }`, which on Node 20
    // costs microseconds (V8 finds no map transition for a key added after a spread copy).
    const event = (Object.isExtensible(init) ? init : Object.assign({}, init)) as RunEventInit & {
      runId: string;
    };
    event.runId = this.runId;
    countEvent(this.counters, event);
    this.ledger?.record(event);
    for (const observer of this.observers) {
      try {
        const returned: unknown = observer(event);
        // An async observer's rejection would otherwise be unhandled and could end the process.
        if (returned instanceof Promise) returned.catch(() => {});
      } catch {
        // An observer's failure must not change the run it watches.
      }
    }
  }

  /**
   * A call of unknown usage (its `ModelResponded` has `usageUnknown`) undercounts the run's `usage` (its
   * tokens read 0), and with pricing has no cost: the caller is told once per run and model, so neither
   * total is read as what the run spent (with pricing, a 0 read as free). `because`: the input or output
   * count the provider sent that was no count (W04), named here rather than in a warning of its own, so one
   * cause makes one warning; none, the provider sent no count.
   */
  usageUnknown(call: { modelId?: string; iteration: number }, because: readonly UsageProblem[]): void {
    const { modelId, iteration } = call;
    if (this.unknownUsage.has(modelId)) return;
    this.unknownUsage.add(modelId);
    const model = modelId === undefined ? "The model" : `Model ${JSON.stringify(modelId)}`;
    const sent = because.map((p) => `${p.key} as ${p.reported}`).join(" and ");
    const said = sent
      ? `${model} reported ${sent} at step ${iteration}, which ${because.length > 1 ? "are not counts" : "is not a count"} of tokens`
      : `${model} reported no token usage (no input or output tokens) at step ${iteration}`;
    const zeroed = sent ? because.map((p) => p.key).join(" and ") : "tokens";
    this.emit({
      type: "ModelWarning",
      iteration,
      message: this.ledger
        ? `${said}, so the cost of that call is unknown, not 0: cost.total leaves out each call without ` +
          `usage (cost.unknownCostSteps counts them), and usage counts its ${zeroed} as 0. Said once per run ` +
          "for each model."
        : `${said}: usage counts that call's ${zeroed} as 0, so the run's usage is less than it spent ` +
          "(ModelResponded.usageUnknown marks each such call). Said once per run for each model.",
    });
  }
}
