// 0. Cold import of the package as installed: packed (`npm pack`), installed into a fresh consumer project
// beside the `ai` and `@ai-sdk/provider` this lane runs, then `import("entity-tools")` against
// `import("ai")`, each in a fresh process of this lane's Node, timed inside it (from just before the
// import to just after, so Node's own start-up is in neither), one ratio per interleaved round.
//
// `COLD_IMPORT_BEFORE=/path/to/entity-tools-x.tgz` adds another package (an older build, packed) to the
// same rounds, installed into a second consumer project: before and after measured in one run.
// Alone: `tsx --tsconfig bench/tsconfig.json bench/cold-import.ts` (lane 2: add the lane's hook, as bench:ai7).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, ms, ratio, type BenchRow, type RatioSummary } from "./measure.js";

const ROUNDS = 15;

/** The version of a package as this process resolves it (lane 2's hook resolves `ai` from lanes/ai7). */
function versionOf(name: string): string {
  const file = fileURLToPath(import.meta.resolve(`${name}/package.json`));
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/** A fresh consumer project with `tarball` installed beside this lane's `ai` and provider spec. */
function consumer(tarball: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cold-import-"));
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  const peers = [`ai@${versionOf("ai")}`, `@ai-sdk/provider@${versionOf("@ai-sdk/provider")}`];
  execFileSync(
    "npm",
    ["install", tarball, ...peers, "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"],
    {
      cwd: dir,
    },
  );
  return dir;
}

/** This repository's build, packed. */
function packed(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cold-import-pack-"));
  const out = execFileSync("npm", ["pack", "--pack-destination", dir, "--loglevel=error"], {
    encoding: "utf8",
  });
  return path.join(dir, out.trim().split("\n").at(-1)!);
}

/** One import in a fresh process: its wall-clock and CPU (user + system, every thread) milliseconds. */
interface Sample {
  readonly wall: number;
  readonly cpu: number;
}

/** `import(specifier)` in a fresh process started in `project`, timed inside it. */
function importOnce(project: string, specifier: string): Sample {
  const script =
    "const c = process.cpuUsage(), t = performance.now(); await import(process.argv[1]); " +
    "const wall = performance.now() - t, { user, system } = process.cpuUsage(c); " +
    "process.stdout.write(JSON.stringify({ wall, cpu: (user + system) / 1000 }));";
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script, specifier], {
    cwd: project,
    encoding: "utf8",
  });
  return JSON.parse(out) as Sample;
}

interface Side {
  readonly label: string;
  readonly project: string;
  readonly times: number[];
  readonly ratios: number[];
  readonly cpuRatios: number[];
}

const summary = (ratios: number[]): RatioSummary => ({
  median: median(ratios),
  min: Math.min(...ratios),
  max: Math.max(...ratios),
});

export async function coldImport(): Promise<BenchRow[]> {
  const ours = packed();
  const tarballs = [{ label: "entity-tools", tarball: ours }];
  const before = process.env.COLD_IMPORT_BEFORE;
  if (before) tarballs.push({ label: "before", tarball: path.resolve(before) });
  const sides: Side[] = tarballs.map(({ label, tarball }) => ({
    label,
    project: consumer(tarball),
    times: [],
    ratios: [],
    cpuRatios: [],
  }));
  const ai: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    // Each side against `ai` imported in the same consumer project, the order alternating per round.
    const timed = sides.map((side) => {
      const pair = (first: string, second: string) => [
        importOnce(side.project, first),
        importOnce(side.project, second),
      ];
      const [ours, theirs] =
        round % 2 === 0 ? pair("entity-tools", "ai") : pair("ai", "entity-tools").reverse();
      return { side, ours: ours!, theirs: theirs! };
    });
    if (round < 0) continue; // the first round warms the disk cache
    for (const { side, ours, theirs } of timed) {
      side.times.push(ours.wall);
      side.ratios.push(ours.wall / theirs.wall);
      side.cpuRatios.push(ours.cpu / theirs.cpu);
      if (side === sides[0]) ai.push(theirs.wall);
    }
  }
  const row = (measure: string, value: string, goal = "", met?: boolean): BenchRow => ({
    bench: "0 cold import",
    measure,
    value,
    goal,
    met,
  });
  const rows = [row(`import("ai") in a fresh process, median of ${ROUNDS}`, ms(median(ai)))];
  for (const side of sides) {
    const after = side.label !== "before";
    const name = after ? `import("entity-tools")` : `import("entity-tools"), before`;
    const wall = summary(side.ratios);
    rows.push(
      row(
        `${name} in a fresh process, installed from its tarball, median of ${ROUNDS}`,
        ms(median(side.times)),
      ),
      row(
        `${name} / import("ai"), one ratio per interleaved round, median (spread)`,
        ratio(wall),
        after ? "≤ 1.2" : "",
        after ? wall.median <= 1.2 : undefined,
      ),
      // CPU time moves less than wall-clock time when other processes load the machine.
      row(`the same in CPU time (user + system), median (spread)`, ratio(summary(side.cpuRatios))),
    );
  }
  // The scratch folders go: each consumer project holds its own node_modules.
  for (const dir of [path.dirname(ours), ...sides.map((side) => side.project)])
    rmSync(dir, { recursive: true, force: true });
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href)
  for (const r of await coldImport())
    console.log(`${r.measure}: ${r.value}${r.goal ? ` (goal ${r.goal})` : ""}`);
