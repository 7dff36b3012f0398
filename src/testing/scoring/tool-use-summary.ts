import { VERDICT_KINDS, type ToolUseScore, type ToolUseVerdictKind } from "./tool-use-verdict.js";

/** Verdict counts, one entry per kind. */
export type ToolUseVerdictCounts = Readonly<Record<ToolUseVerdictKind, number>>;

/** Many runs scored against their expected calls (an eval over N prompts): `scoreToolUse.many`. */
export interface ToolUseSummary {
  /** How many runs. */
  readonly runs: number;
  /** The mean score, 0 to 1 (1 for no runs). */
  readonly score: number;
  /** Runs whose every expected call was made. */
  readonly passed: number;
  /** Verdicts over every expected call of every run. */
  readonly verdicts: ToolUseVerdictCounts;
  /** Per expected call (by label, first seen first): its verdicts over the runs that expected it. */
  readonly byExpected: readonly { readonly label: string; readonly verdicts: ToolUseVerdictCounts }[];
  /** Each run's score, in order. */
  readonly scores: readonly ToolUseScore[];
}

/** The summary of `scores`. */
export function summarize(scores: readonly ToolUseScore[]): ToolUseSummary {
  const total = counts();
  const byLabel = new Map<string, Record<ToolUseVerdictKind, number>>();
  for (const score of scores) {
    for (const v of score.verdicts) {
      total[v.verdict]++;
      const own = byLabel.get(v.label) ?? counts();
      own[v.verdict]++;
      byLabel.set(v.label, own);
    }
  }
  return {
    runs: scores.length,
    score: scores.length === 0 ? 1 : scores.reduce((sum, s) => sum + s.score, 0) / scores.length,
    passed: scores.filter((s) => s.passed).length,
    verdicts: total,
    byExpected: [...byLabel].map(([label, verdicts]) => ({ label, verdicts })),
    scores,
  };
}

function counts(): Record<ToolUseVerdictKind, number> {
  return Object.fromEntries(VERDICT_KINDS.map((k) => [k, 0])) as Record<ToolUseVerdictKind, number>;
}
