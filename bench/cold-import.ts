// 0. Cold import: `import("entity-tools")` against `import("ai")`, each in a fresh process, timed inside it
// (from just before the import to just after, so Node's own start-up is in neither), one ratio per round.
import { execFileSync } from "node:child_process";
import { median, ms, ratio, type BenchRow, type RatioSummary } from "./measure.js";

const ROUNDS = 15;

// The lane's resolve hook (bench:ai7) goes to the child processes too, so both import the lane's `ai`;
// it costs both sides alike per module resolved, and entity-tools resolves more modules.
const laneHook = process.execArgv.flatMap((arg, i, all) =>
  all[i - 1] === "--import" && arg.includes("lanes") ? ["--import", arg] : [],
);

function importMs(specifier: string): number {
  const script =
    "const t = performance.now(); await import(process.argv[1]); " +
    "process.stdout.write(String(performance.now() - t));";
  const out = execFileSync(process.execPath, [...laneHook, "--input-type=module", "-e", script, specifier], {
    encoding: "utf8",
  });
  return Number(out);
}

export async function coldImport(): Promise<BenchRow[]> {
  const ours: number[] = [];
  const ai: number[] = [];
  const ratios: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    const [a, b] =
      round % 2 === 0
        ? [importMs("entity-tools"), importMs("ai")]
        : ([importMs("ai"), importMs("entity-tools")].reverse() as [number, number]);
    if (round < 0) continue; // the first pair warms the disk cache
    ours.push(a);
    ai.push(b);
    ratios.push(a / b);
  }
  const summary: RatioSummary = {
    median: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
  };
  const row = (measure: string, value: string, goal = "", met?: boolean): BenchRow => ({
    bench: "0 cold import",
    measure,
    value,
    goal,
    met,
  });
  return [
    row(`import("entity-tools") in a fresh process, median of ${ROUNDS}`, ms(median(ours))),
    row(`import("ai") in a fresh process, median of ${ROUNDS}`, ms(median(ai))),
    row(
      `import("entity-tools") / import("ai"), one ratio per interleaved round, median (spread)`,
      ratio(summary),
      "≤ 1.2",
      summary.median <= 1.2,
    ),
  ];
}
