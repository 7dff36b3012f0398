// 6. Prompt cache: how much of each model call a provider's exact-prefix cache can serve, per binding mode.
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import type { LanguageModel } from "ai";
import { EntityHandleCodec, LlmTool, PromptRunner, ToolProvider, type DiscoveryOptions } from "entity-tools";
import type { ScriptedTurn } from "entity-tools/testing";
import type { BenchRow } from "./measure.js";
import { playing } from "./mock-model.js";
import { bodyParts, wireModel, type WireProviderName } from "./provider-wire.js";

@ToolProvider({ prefix: "item" })
class Item {
  constructor(
    public id: string,
    public name: string,
    public price: number,
  ) {}

  @LlmTool("Get this item's price")
  getPrice(): number {
    return this.price;
  }

  @LlmTool({
    description: "Attach a note to this item",
    parameters: { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
  })
  addNote(note: string): string {
    return `noted: ${note}`;
  }
}

class Catalog {
  @LlmTool({
    description: "List the items of one catalog page",
    parameters: { type: "object", properties: { page: { type: "number" } }, required: ["page"] },
  })
  listPage(page: number): Item[] {
    return pages[page] ?? [];
  }
}

const STEPS = 30;
const DISCOVERIES = 10;
const CACHED_PRICE = 0.1;
const KEY = "bench-handle-key";
const codec = new EntityHandleCodec(KEY);
let pages: Item[][] = [];

/** Discovery at steps 1, 4, 7, … (10 of them); every other step but the last calls an item's operation. */
function script(binding: "per-instance" | "handles"): (step: number) => ScriptedTurn {
  return (step) => {
    if (step >= STEPS) return { text: "done" };
    const page = Math.floor((step - 1) / 3);
    if ((step - 1) % 3 === 0) return { toolCalls: [{ toolName: "listPage", input: { page } }] };
    const item = pages[page]!.at(-1)!; // the newest: no budget evicts its tools
    const method = step % 3 === 2 ? "getPrice" : "addNote";
    const input = method === "addNote" ? { note: `step ${step}` } : {};
    return binding === "handles"
      ? { toolCalls: [{ toolName: `item_${method}`, input: { handle: codec.handleOf(item), ...input } }] }
      : { toolCalls: [{ toolName: `item_${item.id}_${method}`, input }] };
  };
}

/** Tokens of each part of a request, memoized: the history is append-only, so most parts repeat. */
const memo = new Map<string, readonly number[]>();
function tokensOf(text: string): readonly number[] {
  let tokens = memo.get(text);
  if (!tokens) {
    tokens = encode(text);
    memo.set(text, tokens);
  }
  return tokens;
}

/** A request as the provider renders it for its cache: tools, then system, then messages. */
function requestParts(call: LanguageModelV3CallOptions): string[] {
  const system = call.prompt.filter((m) => m.role === "system");
  const messages = call.prompt.filter((m) => m.role !== "system");
  return [call.tools ?? [], ...system, ...messages].map((part) => JSON.stringify(part));
}

function sharedPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

interface CacheRun {
  readonly input: number;
  readonly cacheable: number;
  readonly lastToolTokens: number;
}

/** The catalog's pages for a run over `entities` items. */
function fillPages(entities: number): void {
  const perPage = entities / DISCOVERIES;
  pages = Array.from({ length: DISCOVERIES }, (_, p) =>
    Array.from(
      { length: perPage },
      (_, i) => new Item(`i${p * perPage + i}`, `Item ${p * perPage + i}`, 10 + i),
    ),
  );
}

/** The bench's conversation on `model`, with discovery as `options` says. */
async function converse(model: LanguageModel, options: DiscoveryOptions): Promise<void> {
  await new PromptRunner({ model })
    .withTools(new Catalog())
    .withSystemPrompt("You answer questions about the catalog. Use the tools; be brief.")
    .withToolProviderDiscovery(options)
    .withMaxToolIterations(STEPS)
    .run("Go through the catalog pages and check the newest item of each.");
}

/** Input and cacheable tokens of a run's requests, each given as its parts (the first: the tool list). */
function cacheOf(requests: readonly (readonly string[])[]): CacheRun {
  let input = 0;
  let cacheable = 0;
  let previous: readonly number[] = [];
  let lastToolTokens = 0;
  for (const parts of requests) {
    const all: number[] = [];
    for (const part of parts) all.push(...tokensOf(part));
    input += all.length;
    cacheable += sharedPrefix(previous, all);
    previous = all;
    lastToolTokens = tokensOf(parts[0]!).length;
  }
  memo.clear();
  return { input, cacheable, lastToolTokens };
}

async function cacheRun(binding: "per-instance" | "handles", entities: number): Promise<CacheRun> {
  fillPages(entities);
  const model = playing(script(binding));
  await converse(model, { binding, handleKey: KEY, classes: [Item] });
  return cacheOf(model.doGenerateCalls.map(requestParts));
}

/** Per-instance names delivered deferred, through the real provider package: its request bodies. */
async function deferredRun(provider: WireProviderName, entities: number): Promise<CacheRun> {
  fillPages(entities);
  const wire = wireModel(provider, script("per-instance"));
  await converse(wire.model, { delivery: "deferred" });
  return cacheOf(wire.bodies.map((body) => bodyParts(provider, body)));
}

const thousands = (n: number) => Math.round(n).toLocaleString("en-US");

/** One row: input, the cacheable share, the bill at 0.1× for cached tokens, the tool list's tokens at the end. */
function cacheRow(label: string, entities: number, run: CacheRun, goal: boolean): BenchRow {
  const share = run.cacheable / run.input;
  const billed = run.input - run.cacheable + CACHED_PRICE * run.cacheable;
  return {
    bench: "6 prompt cache",
    measure:
      `${label}, ${thousands(entities)} entities: input · cacheable · billed at 0.1× cached · ` +
      "tool-definition tokens at the last step",
    value: `${thousands(run.input)} · ${(share * 100).toFixed(1)} % · ${thousands(billed)} · ${thousands(run.lastToolTokens)}`,
    goal: goal ? "≥ 90 % cacheable" : "",
    met: goal ? share >= 0.9 : undefined,
  };
}

export async function promptCache(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const toolTokens = new Map<number, number>();
  for (const entities of [10, 1_000, 10_000]) {
    for (const binding of ["per-instance", "handles"] as const) {
      const run = await cacheRun(binding, entities);
      if (binding === "handles") toolTokens.set(entities, run.lastToolTokens);
      rows.push(cacheRow(binding, entities, run, binding === "handles"));
    }
  }
  for (const entities of [10, 1_000, 10_000]) {
    for (const provider of ["anthropic", "openai"] as const) {
      const run = await deferredRun(provider, entities);
      rows.push(cacheRow(`per-instance deferred, ${provider} wire`, entities, run, true));
    }
  }
  const small = toolTokens.get(10)!;
  const large = toolTokens.get(10_000)!;
  rows.push({
    bench: "6 prompt cache",
    measure: "handles: tool-definition tokens at 10 and at 10 000 entities",
    value: `${thousands(small)} and ${thousands(large)}`,
    goal: "equal",
    met: small === large,
  });
  return rows;
}
