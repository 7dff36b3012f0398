import type { ToolUseSummary } from "./tool-use-summary.js";
import type { ToolUseCall } from "./tool-use-run.js";
import { VERDICT_KINDS, type ToolUseScore, type ToolUseVerdict } from "./tool-use-verdict.js";

/**
 * A score as lines for people: the score, then one line per expected call with its verdict, its step and
 * what it means, then the calls that matched nothing. What the test helpers print when an expectation fails.
 */
export function formatToolUseScore(score: ToolUseScore): string {
  const made = score.verdicts.filter((v) => v.verdict === "called").length;
  const how = `${score.options.order === "in-order" ? "in order" : "any order"}, ${score.options.match === "exact" ? "no other calls" : "other calls allowed"}`;
  const lines = [
    `tool use: ${made} of ${score.verdicts.length} expected call(s) made, score ${score.score.toFixed(2)} (${how})`,
    ...score.verdicts.map((v) => `  ${v.verdict === "called" ? "✓" : "✗"} ${v.label}: ${explain(v)}`),
  ];
  if (score.otherCalls.length > 0)
    lines.push(`  other calls: ${score.otherCalls.map((c) => `${callText(c)} (step ${c.step})`).join(", ")}`);
  return lines.join("\n");
}

/** A summary as lines for people: runs, mean score, passes, then each expected call's verdict counts. */
export function formatToolUseSummary(summary: ToolUseSummary): string {
  const lines = [
    `${summary.runs} run(s), mean score ${summary.score.toFixed(2)}, ${summary.passed} with every expected call made`,
  ];
  for (const { label, verdicts } of summary.byExpected) {
    const counted = VERDICT_KINDS.filter((k) => verdicts[k] > 0).map((k) => `${k} ${verdicts[k]}`);
    lines.push(`  ${label}: ${counted.join(", ")}`);
  }
  return lines.join("\n");
}

/** One verdict in words, with its step and what it points at. */
function explain(v: ToolUseVerdict): string {
  const at = v.step === undefined ? "" : ` at step ${v.step}`;
  switch (v.verdict) {
    case "called":
      return `called${at}${v.call?.failed ? " (it got an error result)" : v.call?.waiting ? " (waiting for a person's decision)" : ""}`;
    case "called-out-of-order":
      return `called${at}, but not after the call expected before it`;
    case "called-on-another-entity":
      return `called on another entity${at}: ${v.call ? callText(v.call) : "?"}`;
    case "offered-not-chosen": {
      const steps =
        v.offeredAt && v.offeredAt.length > 1 ? ` (offered at steps ${v.offeredAt.join(", ")})` : "";
      return `offered${at}, not chosen${steps}: the model picked otherwise (description or model)`;
    }
    case "not-offered":
      return v.step === undefined
        ? "not offered in the run: a discovery or budget problem"
        : `not offered from step ${v.step} on: a discovery or budget problem`;
    case "not-called":
      return "not called (this source does not say what was offered)";
  }
}

function callText(call: ToolUseCall): string {
  const p = call.provider;
  return `${call.toolName}${p ? ` (${p.providerClass} ${String(p.id)})` : ""}`;
}
