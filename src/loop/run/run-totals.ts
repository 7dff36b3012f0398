// A run's totals across the calls that make it (`run`, then each `resume`): what the run had before this
// call, read from the snapshot it resumed, and what this call adds. A restart (a new attempt) resets none.
// Two of them are the limits' (`withMaxToolIterations`, `withMaxExpansions`), which bound the run that
// answers one prompt: a continued conversation's turn starts them from none, while `iterations` and `usage`
// go on with the conversation's.
import { addUsage, emptyUsage, type ReportedTokenUsage, type TokenUsage } from "../../events/token-usage.js";

/** What a run had totalled before this call: nothing for a new run; a resumed snapshot's totals. */
export interface TotalsBefore {
  /** Model calls of the conversation so far (a continued conversation's earlier turns included). */
  readonly iterations: number;
  /**
   * Of those, the model calls of the run answering the latest prompt, which `withMaxToolIterations` bounds: a
   * paused run resumed goes on counting; a continued conversation's turn, a new prompt, starts from none.
   */
  readonly turnIterations: number;
  readonly usage: TokenUsage;
  /**
   * Restarts from the prompt so far, which `withMaxExpansions` bounds: a paused run resumed goes on
   * counting; a continued conversation's turn, a new prompt, starts from none.
   */
  readonly expansions: number;
}

/** A run that totals nothing yet. */
export const NOTHING_BEFORE: TotalsBefore = {
  iterations: 0,
  turnIterations: 0,
  usage: emptyUsage(),
  expansions: 0,
};

/**
 * The iterations, tokens and restarts from the prompt of a whole run (earlier attempts and a resumed
 * snapshot's included), and the tokens of this call alone (what its `RunFinished` reports).
 */
export class RunTotals {
  private ownIterations = 0;
  private ownUsage: TokenUsage = emptyUsage();
  private ownExpansions = 0;

  constructor(private readonly before: TotalsBefore) {}

  /** Model calls (iterations) of the whole run, a continued conversation's earlier turns included. */
  get iterations(): number {
    return this.before.iterations + this.ownIterations;
  }

  /** Model calls of the run answering the latest prompt (see `TotalsBefore.turnIterations`). */
  get turnIterations(): number {
    return this.before.turnIterations + this.ownIterations;
  }

  /** Tokens of the whole run. */
  get usage(): TokenUsage {
    return addUsage(this.before.usage, this.ownUsage);
  }

  /** Tokens of this call of `run`/`resume` alone (a resumed snapshot's not included). */
  get callUsage(): TokenUsage {
    return { ...this.ownUsage };
  }

  /** Restarts from the prompt of the run (see `TotalsBefore.expansions`). */
  get expansions(): number {
    return this.before.expansions + this.ownExpansions;
  }

  countIteration(): void {
    this.ownIterations++;
  }

  /** Adds tokens a response or a backend's turn reported. */
  addUsage(usage: ReportedTokenUsage | undefined): void {
    this.ownUsage = addUsage(this.ownUsage, usage);
  }

  /** Counts a restart from the prompt (a section read's or a strategy's, not a backend's new thread). */
  countExpansion(): void {
    this.ownExpansions++;
  }
}
