// 2. Discovery scaling: a tool returning N providers × 3 methods, in isolation and inside a run.
import { defineTool, LlmTool, PromptRunner, ToolProvider, ToolProviderStrategy } from "entity-tools";
// Two internals, measured alone: the build bundles the entry points and has no file of them, so they come
// from the sources (decorator metadata is shared between copies: decorators/metadata-keys.ts).
import { ToolRegistry } from "../src/tools/tool-registry.js";
import { toSdkTools } from "../src/adapters/tool-definitions.js";
import { median, medianMs, ms, ratio, type BenchRow, type RatioSummary } from "./measure.js";
import { forgetful, playing } from "./mock-model.js";

@ToolProvider({ prefix: "node" })
class Node {
  constructor(public id: string) {}
  @LlmTool("Read this node")
  read(): string {
    return this.id;
  }
  @LlmTool("List this node's children")
  children(): string[] {
    return [];
  }
  @LlmTool("Describe this node")
  describe(): string {
    return `node ${this.id}`;
  }
}

const strategy = new ToolProviderStrategy();

function discover(providers: Node[], budget: number | undefined): ToolRegistry {
  const registry = new ToolRegistry([], { maxInjectedTools: budget });
  const delta = strategy.evaluateToolResult({
    conversationHistory: [],
    currentTools: [],
    lastToolCall: { toolName: "list", toolInput: {}, result: "", resultObject: providers },
    iterationCount: 1,
  });
  registry.add(delta.add ?? []);
  return registry;
}

export async function discoveryScaling(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of [10, 100, 1_000, 10_000]) {
    const providers = Array.from({ length: n }, (_, i) => new Node(`n${i}`));
    for (const budget of [undefined, 128]) {
      const samples = n >= 10_000 ? 10 : 30;
      const discoverMs = await medianMs(() => discover(providers, budget), samples, 3);
      const registry = discover(providers, budget);
      const buildMs = await medianMs(() => toSdkTools(registry.all()), samples, 3);
      const label = `N=${n}${budget ? ", budget 128" : ", no budget"}`;
      rows.push({
        bench: "2 discovery",
        measure: `${label}: discover + bind + register (${n * 3} tools)`,
        value: ms(discoverMs),
        goal: n === 1_000 ? "< 5 ms" : "linear",
        met: n === 1_000 ? discoverMs < 5 : undefined,
      });
      rows.push({
        bench: "2 discovery",
        measure: `${label}: build the SDK tool set of ${registry.size} tools (a run's first step)`,
        value: ms(buildMs),
        goal: budget ? "constant in N" : "",
        met: undefined,
      });
    }
  }
  return rows;
}

const LATER_STEPS = 40;
const ROUNDS = 21;

/**
 * One run whose first step lists `n` providers, then 40 steps each call one discovered tool (the first
 * provider's, which the budget keeps): the cost of a step after discovery, timed from one model call to
 * the next, so the discovery step itself is not in it.
 */
async function stepAfterDiscovery(providers: readonly Node[], budget: number): Promise<number> {
  const list = defineTool({ name: "list", description: "List the nodes", execute: () => providers });
  const first = `node_${providers[0]!.id}_read`;
  const calledAt: number[] = [];
  const model = playing((step) => {
    calledAt.push(performance.now());
    if (step === 1) return { toolCalls: [{ toolName: "list" }] };
    return step <= 1 + LATER_STEPS ? { toolCalls: [{ toolName: first }] } : { text: "done" };
  });
  await new PromptRunner({ model })
    .withTools(list)
    .withToolProviderDiscovery({ maxInjectedTools: budget })
    .withMaxToolIterations(LATER_STEPS + 2)
    .run("go");
  // calledAt[1] is the call right after discovery; the last one is the answer.
  return (calledAt.at(-1)! - calledAt[1]!) / (calledAt.length - 2);
}

/**
 * Discovery inside the loop: a step once 1 000 providers were found against a step once 10 were, the two
 * runs alternating, one ratio per round (median and spread).
 */
export async function discoveryInLoop(): Promise<BenchRow[]> {
  const nodes = (n: number) => Array.from({ length: n }, (_, i) => new Node(`n${i}`));
  const few = nodes(10);
  const many = nodes(1_000);
  const costs = { few: [] as number[], many: [] as number[], unbudgeted: [] as number[] };
  const ratios: number[] = [];
  for (let round = -3; round < ROUNDS; round++) {
    const pair =
      round % 2 === 0
        ? [await stepAfterDiscovery(few, 128), await stepAfterDiscovery(many, 128)]
        : [await stepAfterDiscovery(many, 128), await stepAfterDiscovery(few, 128)].reverse();
    const unbudgeted = await stepAfterDiscovery(many, 1_000_000);
    if (round < 0) continue; // warm-up
    costs.few.push(pair[0]!);
    costs.many.push(pair[1]!);
    costs.unbudgeted.push(unbudgeted);
    ratios.push(pair[1]! / pair[0]!);
  }
  const growth = { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
  const row = (measure: string, value: string, goal = "", met?: boolean): BenchRow => ({
    bench: "2 discovery",
    measure,
    value,
    goal,
    met,
  });
  return [
    row("in a run: a step after 10 providers were found (30 tools offered)", ms(median(costs.few))),
    row(
      "in a run: a step after 1 000 were found, budget 128 (the first 42: 126 tools offered)",
      ms(median(costs.many)),
    ),
    row(
      "in a run: a step after 1 000 were found, no budget (3 000 tools offered)",
      ms(median(costs.unbudgeted)),
    ),
    row(
      `in a run: step cost after 1 000 providers / after 10, budget 128, median (spread) of ${ROUNDS} rounds`,
      ratio(growth),
      "≤ 1.3",
      growth.median <= 1.3,
    ),
  ];
}

const DISCOVERIES = 30;
const REPEAT_ROUNDS = 11;

/**
 * The discovery step inside a run, and whether it costs more once the run has discovered a lot: one run
 * whose tool returns 1 000 new providers at each of its first 30 steps (budget 128), the step after the
 * call timed from that model call to the next. The 30th against the 1st, one ratio per run.
 */
async function repeatedDiscovery(): Promise<{ first: number; last: number; growth: RatioSummary }> {
  const sets = Array.from({ length: DISCOVERIES }, (_, k) =>
    Array.from({ length: 1_000 }, (_, i) => new Node(`k${k}n${i}`)),
  );
  const first: number[] = [];
  const last: number[] = [];
  const growths: number[] = [];
  for (let round = -2; round < REPEAT_ROUNDS; round++) {
    let listed = 0;
    const list = defineTool({ name: "list", description: "List the nodes", execute: () => sets[listed++]! });
    const calledAt: number[] = [];
    const model = forgetful((step) => {
      calledAt.push(performance.now());
      return step <= DISCOVERIES ? { toolCalls: [{ toolName: "list" }] } : { text: "done" };
    });
    await new PromptRunner({ model })
      .withTools(list)
      .withToolProviderDiscovery({ maxInjectedTools: 128 })
      .withMaxToolIterations(DISCOVERIES + 1)
      .run("go");
    if (round < 0) continue; // warm-up
    // calledAt[k] is call k + 1; the discovery made at call k + 1 is timed up to call k + 2
    const a = calledAt[2]! - calledAt[1]!; // the 2nd call's discovery: the 1st on the direct path
    const b = calledAt[DISCOVERIES]! - calledAt[DISCOVERIES - 1]!;
    first.push(a);
    last.push(b);
    growths.push(b / a);
  }
  return {
    first: median(first),
    last: median(last),
    growth: { median: median(growths), min: Math.min(...growths), max: Math.max(...growths) },
  };
}

/**
 * The discovery step of one run whose tool returns `n` providers (default budget of 64), from that
 * model call to the next, median of 3 runs; per-instance or handles mode.
 */
async function oneBigResult(n: number, binding: "per-instance" | "handles"): Promise<number> {
  const providers = Array.from({ length: n }, (_, i) => new Node(`n${i}`));
  const list = defineTool({ name: "list", description: "List the nodes", execute: () => providers });
  const samples: number[] = [];
  for (let round = -1; round < 3; round++) {
    const calledAt: number[] = [];
    const model = forgetful((step) => {
      calledAt.push(performance.now());
      return step === 1 ? { toolCalls: [{ toolName: "list" }] } : { text: "done" };
    });
    await new PromptRunner({ model }).withTools(list).withToolProviderDiscovery({ binding }).run("go");
    if (round >= 0) samples.push(calledAt[1]! - calledAt[0]!); // round -1 warms up
  }
  return median(samples);
}

/** One result of 10 000 and of 100 000 providers, per-instance (goal ≤ 50 / ≤ 500 ms) and handles. */
export async function bigResults(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of [10_000, 100_000]) {
    const goal = n === 10_000 ? 50 : 500;
    const perInstance = await oneBigResult(n, "per-instance");
    const handles = await oneBigResult(n, "handles");
    rows.push({
      bench: "2 discovery",
      measure: `in a run: a step whose tool returns ${n} providers, per-instance (budget 64: 32 bound), median of 3`,
      value: ms(perInstance),
      goal: `≤ ${goal} ms`,
      met: perInstance <= goal,
    });
    rows.push({
      bench: "2 discovery",
      measure: `in a run: the same, handles mode (a handle each, no tools added per provider)`,
      value: ms(handles),
      goal: "",
      met: undefined,
    });
  }
  return rows;
}

/** The discovery step inside a run: the same at a run's 30th discovery as at its first; 100 000 at once. */
export async function discoveryRepeatedInLoop(): Promise<BenchRow[]> {
  const repeated = await repeatedDiscovery();
  const big = await bigResults();
  const row = (measure: string, value: string, goal = "", met?: boolean): BenchRow => ({
    bench: "2 discovery",
    measure,
    value,
    goal,
    met,
  });
  return [
    row(
      "in a run: a step that discovers 1 000 new providers (budget 128), the run's 2nd discovery",
      ms(repeated.first),
    ),
    row(`in a run: the same, the run's ${DISCOVERIES}th discovery`, ms(repeated.last)),
    row(
      `in a run: ${DISCOVERIES}th discovery / 2nd, median (spread) of ${REPEAT_ROUNDS} runs`,
      ratio(repeated.growth),
      "≤ 1.3",
      repeated.growth.median <= 1.3,
    ),
    ...big,
  ];
}
