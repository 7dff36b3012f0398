// 1. Loop overhead with discovery: the same 20-step conversation as the static row, but the tools are
// found on the way. Step 1 calls `find_items`, which returns 10 `@ToolProvider` items; each later step
// calls one item's own tool (`item_<id>_look`, bound to that instance); the last step answers. What a user
// would write instead with the AI SDK alone: the lookup tool plus one tool taking the item's id, running
// in the SDK's own multi-step loop (it cannot add tools mid-run). Ratios per interleaved round of blocks of
// runs, as the static row's (loop-overhead.ts).
import { generateText, jsonSchema, stepCountIs, type ToolSet } from "ai";
import { defineTool, LlmTool, PromptRunner, ToolProvider } from "entity-tools";
import { blockRatio, blockRatioRows, type BenchRow } from "./measure.js";
import { playing } from "./mock-model.js";

const STEPS = 20;
const ITEMS = 10;
const ROUNDS = 31;
/** Runs of each side in a sample. */
const BLOCK = 16;

@ToolProvider({ prefix: "item" })
class Item {
  constructor(public id: string) {}
  @LlmTool("Look at this item")
  look(): { id: string; rows: number[] } {
    return { id: this.id, rows: [1, 2, 3] };
  }
}

const items = Array.from({ length: ITEMS }, (_, i) => new Item(`i${i}`));
const byId = new Map(items.map((item) => [item.id, item]));

/** Step 1 finds the items, steps 2…19 look at one each (in turn), step 20 answers. */
function discoveryModel(perItemTool: (id: string) => { toolName: string; input: Record<string, unknown> }) {
  return playing((step) => {
    if (step === 1) return { toolCalls: [{ toolName: "find_items" }] };
    if (step === STEPS) return { text: "done" };
    return { toolCalls: [perItemTool(items[step % ITEMS]!.id)] };
  });
}

const ours = async (): Promise<void> => {
  const find = defineTool({ name: "find_items", description: "Find the items", execute: () => items });
  await new PromptRunner({ model: discoveryModel((id) => ({ toolName: `item_${id}_look`, input: {} })) })
    .withTools(find)
    .withToolProviderDiscovery()
    .withMaxToolIterations(STEPS)
    .run("go");
};

const sdkLoop = async (): Promise<void> => {
  const tools: ToolSet = {
    find_items: {
      description: "Find the items",
      inputSchema: jsonSchema({ type: "object", properties: {} }),
      execute: async () => JSON.stringify(items.map((item) => item.id)),
    },
    item_look: {
      description: "Look at an item",
      inputSchema: jsonSchema({ type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
      execute: async ({ id }: { id: string }) => JSON.stringify(byId.get(id)?.look()),
    },
  };
  await generateText({
    model: discoveryModel((id) => ({ toolName: "item_look", input: { id } })),
    prompt: "go",
    tools,
    stopWhen: stepCountIs(STEPS),
  });
};

export async function loopWithDiscovery(): Promise<BenchRow[]> {
  const vsSdk = await blockRatio(ours, sdkLoop, ROUNDS, BLOCK);
  return blockRatioRows(
    "1 loop overhead",
    `run() with discovery / the AI SDK's own loop with id-taking tools, ${STEPS} steps, ${ITEMS} items found at step 1, median (spread) of ${ROUNDS} blocks of ${BLOCK} runs`,
    vsSdk,
    0.5,
  );
}
