import { estimateDefinitionTokens, estimateTextTokens } from "../tools/definition-tokens.js";
import { plainIdentity } from "../tools/provider-binding.js";
import { providerKeyOf, type ProviderIdentity } from "../tools/provider-identity.js";
import type { AnyTool } from "../tools/tool.js";
import { costOf, pricesFor, responseCost, type Pricing } from "./pricing.js";
import type { RunCost, SnapshotCost, StepCost } from "./run-cost.js";
import { addUsage } from "./token-usage.js";
import type { ModelRespondedEvent, ToolLoopEvent } from "./tool-loop-event.js";
import { isAnotherModel } from "./step-responses.js";

interface ProviderEntry {
  providerClass: string;
  identity: ProviderIdentity;
  instanceId: string;
  definitionTokens: number;
  calls: number;
  resultTokens: number;
  cost: number;
  /** Tokens of its results so far: every later request carries them. */
  heldResultTokens: number;
}

/** The discovered tools one request offered: their definition tokens by provider, and the sum of them. */
interface Offered {
  readonly byProvider: Map<ProviderEntry, number>;
  tokens: number;
}

/** A request that offered no discovered tool (yet). */
function noneOffered(): Offered {
  return { byProvider: new Map(), tokens: 0 };
}

/**
 * Builds a run's {@link RunCost} from its events, so it is the same on every backend: step costs from
 * `ModelResponded` usage, and attribution from which discovered tools each request offered (the
 * `ToolLoopIteration` before it) and which calls came before it.
 */
export class CostLedger {
  private readonly steps: StepCost[] = [];
  private readonly providers = new Map<string, ProviderEntry>();
  private readonly owners = new Map<string, { entry: ProviderEntry; tokens: number }>();
  private offered = noneOffered();
  /** What the last reported step offered: a step reported again shares its cost out by it. */
  private stepOffered = noneOffered();
  /**
   * The providers' `heldResultTokens` added up, kept as they grow: a step reads the sum before it shares
   * out its cost, so the providers are walked once a step, not twice.
   */
  private heldResultTokens = 0;

  /** Steps a resumed snapshot carried: a step of this call is never merged into one of them. */
  private carried = 0;

  constructor(private readonly pricing: Pricing) {}

  /**
   * Goes on from a snapshot's cost (a resumed run, a continued conversation's turn): its steps and its
   * providers, with the result tokens the conversation holds. Before any event of the run.
   */
  restore(saved: SnapshotCost): void {
    this.steps.push(...saved.perStep.map((step) => ({ ...step, usage: { ...step.usage } })));
    this.carried = this.steps.length;
    for (const provider of saved.perProvider) {
      const entry = this.entry(provider.identity);
      entry.definitionTokens = provider.definitionTokens;
      entry.calls = provider.calls;
      entry.resultTokens = provider.resultTokens;
      entry.cost = provider.cost;
      this.heldResultTokens += provider.heldResultTokens - entry.heldResultTokens;
      entry.heldResultTokens = provider.heldResultTokens;
    }
  }

  /**
   * The discovered tools a resumed or continued run re-bound from its snapshot (no `ToolProviderDiscovered`
   * says so: they were found before): each is its provider's, as a discovered one is, so the requests that
   * offer them and their calls are attributed to it.
   */
  rebound(tools: readonly AnyTool[]): void {
    for (const tool of tools) {
      const identity = tool.origin?.identity;
      if (identity && !tool.handleTarget)
        this.owners.set(tool.name, { entry: this.entry(identity), tokens: estimateDefinitionTokens(tool) });
    }
  }

  /** The cost so far as a snapshot carries it (see {@link SnapshotCost}). */
  saved(): SnapshotCost {
    const { total, perStep } = this.result();
    return {
      total,
      perStep,
      perProvider: [...this.providers.values()].map((entry) => ({
        identity: entry.identity,
        definitionTokens: entry.definitionTokens,
        calls: entry.calls,
        resultTokens: entry.resultTokens,
        cost: entry.cost,
        heldResultTokens: entry.heldResultTokens,
      })),
    };
  }

  record(event: ToolLoopEvent): void {
    switch (event.type) {
      case "ToolProviderDiscovered": {
        const entry = this.entry(event.identity);
        // Tools of this provider alone (a handle tool serves every instance of its class: its definition is
        // not attributed, its calls are, by the handle they pass).
        for (const name of event.exposedTools) {
          const tokens = event.definitionTokens[name];
          if (tokens !== undefined) this.owners.set(name, { entry, tokens });
        }
        break;
      }
      case "ToolLoopIteration": {
        const offered = (this.offered = noneOffered());
        for (const name of event.toolNames) {
          const owner = this.owners.get(name);
          if (!owner) continue;
          offered.byProvider.set(owner.entry, (offered.byProvider.get(owner.entry) ?? 0) + owner.tokens);
          offered.tokens += owner.tokens;
        }
        break;
      }
      case "ModelResponded":
        this.step(event);
        break;
      case "ToolInvoked":
      case "ToolFailed": {
        // A class tool's call is the provider's its handle names (`provider`), one this run found or not.
        const entry =
          this.owners.get(event.toolName)?.entry ??
          (event.provider && this.entry(plainIdentity(event.provider)));
        if (!entry) break;
        entry.calls++;
        const tokens = estimateTextTokens(event.type === "ToolInvoked" ? event.resultText : event.message);
        entry.heldResultTokens += tokens;
        this.heldResultTokens += tokens;
        break;
      }
      default:
        break;
    }
  }

  /**
   * USD of the model calls made since the snapshot this run went on from (all of them for a new run): what
   * this call of `run`/`resume` added, so that a sum over a conversation's calls counts each once. A call of
   * unknown cost is left out, as from `total`.
   */
  callTotal(): number {
    return this.steps.slice(this.carried).reduce((sum, s) => sum + (s.cost ?? 0), 0);
  }

  /** The cost so far. */
  result(): RunCost {
    const unknown = this.steps.filter((s) => s.cost === undefined).length;
    return {
      total: this.steps.reduce((sum, s) => sum + (s.cost ?? 0), 0),
      ...(unknown > 0 ? { unknownCostSteps: unknown } : {}),
      perStep: [...this.steps],
      perProvider: [...this.providers.values()].map(({ heldResultTokens: _held, ...cost }) => ({ ...cost })),
    };
  }

  /** The entry of a provider, made (with nothing attributed yet) when it has none. */
  private entry(identity: ProviderIdentity): ProviderEntry {
    const key = providerKeyOf(identity);
    let entry = this.providers.get(key);
    if (!entry) {
      entry = {
        providerClass: identity.providerClass,
        identity,
        instanceId: String(identity.id),
        definitionTokens: 0,
        calls: 0,
        resultTokens: 0,
        cost: 0,
        heldResultTokens: 0,
      };
      this.providers.set(key, entry);
    }
    return entry;
  }

  private step(response: ModelRespondedEvent): void {
    const { iteration, usage, modelId } = response;
    const prices = pricesFor(this.pricing, modelId);
    // At the prices looked up (a table is a `Pricing`): a pricing function is asked once a response.
    const cost = responseCost(prices, response);
    // A carried step is another call's: a continued conversation's turn numbers its steps from 1 again.
    const last = this.steps.length > this.carried ? this.steps.at(-1) : undefined;
    if (last?.iteration === iteration && isAnotherModel(last.modelId, modelId)) {
      // Another model's calls in the step (a conversation backend's subagent, a helper call): an entry of
      // their own at their model's price. What they were sent is not what the step offered, so the
      // providers get no share of it.
      this.steps.push({ iteration, modelId, usage, ...costField(cost) });
      return;
    }
    // A step reported twice (a conversation backend's turn a stop ended: its tokens come after its call) is
    // one entry, with the tokens and cost of both, named by the model they were priced as; its estimates
    // were counted at the first report, and the second's input cost is shared out among what it offered.
    const again = last?.iteration === iteration;
    if (again) {
      const model = modelId ?? last.modelId;
      this.steps[this.steps.length - 1] = {
        iteration,
        ...(model === undefined ? {} : { modelId: model }),
        usage: addUsage(last.usage, usage),
        // Unknown when either part is: a sum with an unknown part is unknown.
        ...costField(last.cost === undefined || cost === undefined ? undefined : last.cost + cost),
      };
    } else {
      this.steps.push({
        iteration,
        ...(modelId === undefined ? {} : { modelId }),
        usage,
        ...costField(cost),
      });
      this.stepOffered = this.offered;
      this.offered = noneOffered();
    }
    const estimated = this.stepOffered.tokens + this.heldResultTokens;
    // The providers share what this request's input cost (cached tokens at their price), never more: each
    // estimated token is priced at the request's own input price per token, and when the estimates add up
    // to more than the input tokens the provider reported, they are scaled down to that count. A request
    // that reported no input tokens attributes nothing. So `perProvider` stays a share of `total`.
    const perToken =
      usage.inputTokens > 0
        ? costOf({ ...usage, outputTokens: 0 }, prices) / Math.max(estimated, usage.inputTokens)
        : 0;
    for (const [entry, tokens] of this.stepOffered.byProvider) {
      if (!again) entry.definitionTokens += tokens;
      entry.cost += tokens * perToken;
    }
    for (const entry of this.providers.values()) {
      if (!again) entry.resultTokens += entry.heldResultTokens;
      entry.cost += entry.heldResultTokens * perToken;
    }
  }
}

/** A step's `cost` member: none when the cost is unknown. */
function costField(cost: number | undefined): Pick<StepCost, "cost"> {
  return cost === undefined ? {} : { cost };
}
