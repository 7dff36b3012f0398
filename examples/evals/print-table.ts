// The eval's output: one column per binding mode, a row per prompt (its score), then the mean, the runs
// that made every expected call, and the misses by kind; below, each miss in words.
import type { EvalCase } from "./eval-cases.js";
import type { BindingMode } from "./binding-modes.js";
import {
  formatToolUseScore,
  scoreToolUse,
  type ToolUseScore,
  type ToolUseVerdictKind,
} from "entity-tools/testing";

interface Result {
  readonly mode: BindingMode;
  readonly item: EvalCase;
  readonly score?: ToolUseScore;
  readonly error?: string;
}

const MISSES: readonly [string, ToolUseVerdictKind][] = [
  ["not offered", "not-offered"],
  ["offered, not chosen", "offered-not-chosen"],
  ["another entity", "called-on-another-entity"],
];

export function printTable(results: readonly Result[], print: (line: string) => void): void {
  const modes = [...new Set(results.map((r) => r.mode))];
  const items = [...new Set(results.map((r) => r.item))];
  const cell = (mode: BindingMode, item: EvalCase) =>
    results.find((r) => r.mode === mode && r.item === item)!;
  const rows: string[][] = [["prompt", ...modes.map((m) => m.name)]];
  for (const item of items)
    rows.push([item.id, ...modes.map((m) => cell(m, item).score?.score.toFixed(2) ?? "error")]);
  const summaries = modes.map((m) =>
    scoreToolUse.many(results.flatMap((r) => (r.mode === m && r.score ? [r.score] : []))),
  );
  rows.push(["mean", ...summaries.map((s) => s.score.toFixed(2))]);
  rows.push(["passed", ...summaries.map((s) => `${s.passed}/${items.length}`)]);
  for (const [label, kind] of MISSES) rows.push([label, ...summaries.map((s) => String(s.verdicts[kind]))]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const row of rows)
    print(
      row
        .map((text, i) => text.padEnd(widths[i]!))
        .join("   ")
        .trimEnd(),
    );

  const misses = results.filter((r) => r.error || !r.score?.passed);
  if (misses.length > 0) print("\nmisses:");
  for (const r of misses) {
    print(`${r.item.id} · ${r.mode.name}:`);
    print(r.error ? `  error: ${r.error}` : formatToolUseScore(r.score!).replace(/^/gm, "  "));
  }
}
