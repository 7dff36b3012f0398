// What a run's lines add up to so far: its steps, tokens and cost. A run's end record says all three once it
// ends; a run still going (or whose process stopped before its end) has none, and the viewer adds them up
// from its step and response records instead (the run list on the server, from what each file gained; the
// run panel, from the steps it shows). One rule for both. Pure: the page runs it.
import { addUsage, emptyUsage, type TokenUsage } from "../events/token-usage.js";
import { recordProblem } from "./read-run-log.js";

/** A run's figures so far, from the records written before its end. */
export interface RunSoFar {
  /** The file's steps so far: the last `step` record's `step` (0 before the first). */
  readonly steps: number;
  /** Tokens of the model calls answered so far. */
  readonly usage: TokenUsage;
  /** USD of the model calls answered so far; absent when none was priced. */
  readonly cost?: number;
  /** A call's cost is unknown (its response record's `costUnknown`): `cost` leaves it out. */
  readonly costUnknown?: true;
}

/** The records a tally reads (any other is passed over). */
interface Counted {
  readonly type?: unknown;
  readonly step?: unknown;
  readonly usage?: Partial<TokenUsage>;
  readonly cost?: unknown;
  readonly costUnknown?: unknown;
}

/** Adds up a run's steps, tokens and cost, record by record. */
export class RunTally {
  private steps = 0;
  private usage = emptyUsage();
  private cost: number | undefined;
  private costUnknown = false;

  /**
   * Counts one record: a `step` record's number, a `response` record's tokens and cost. A record the
   * reader would skip (`recordProblem`: a field of another shape) is passed over here too.
   */
  add(record: Counted): void {
    if (recordProblem(record) !== undefined) return;
    if (record.type === "step" && typeof record.step === "number")
      this.steps = Math.max(this.steps, record.step);
    else if (record.type === "response") {
      this.usage = addUsage(this.usage, record.usage);
      if (typeof record.cost === "number") this.cost = (this.cost ?? 0) + record.cost;
      if (record.costUnknown === true) {
        this.cost ??= 0; // priced: what the known ones cost, and that one is unknown
        this.costUnknown = true;
      }
    }
  }

  /** Counts each whole line of `text` (a line that is not a JSON record is passed over, as the reader skips it). */
  addLines(text: string): void {
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        const record: unknown = JSON.parse(line);
        if (typeof record === "object" && record !== null) this.add(record as Counted);
      } catch {
        // not JSON: skipped here as the reader skips it (and names it, in the run's panel)
      }
    }
  }

  /** The figures so far. */
  get soFar(): RunSoFar {
    return {
      steps: this.steps,
      usage: this.usage,
      ...(this.cost === undefined ? {} : { cost: this.cost }),
      ...(this.costUnknown ? { costUnknown: true as const } : {}),
    };
  }
}

/** Whether `line` (a file's last whole line) is an end record: the run ended, and says its own figures. */
export function isEndLine(line: string): boolean {
  if (!line.includes('"end"')) return false; // most lines are not: no need to parse them
  try {
    return (JSON.parse(line) as { type?: unknown } | null)?.type === "end";
  } catch {
    return false;
  }
}
