// 2. Discovery scaling: a tool returning N providers × 3 methods.
import { LlmTool, ToolProvider, ToolProviderStrategy } from "entity-tools";
import { ToolRegistry } from "../dist/src/tools/tool-registry.js";
import { toSdkTools } from "../dist/src/adapters/tool-definitions.js";
import { medianMs, ms, type BenchRow } from "./measure.js";

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
        measure: `${label}: build next request (${registry.size} tools offered)`,
        value: ms(buildMs),
        goal: budget ? "constant in N" : "",
        met: undefined,
      });
    }
  }
  return rows;
}
