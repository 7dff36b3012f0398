// 4. Schemas: the CLI on the examples, and start-up with 100 generated tool schemas.
import { generateSchemas } from "../dist/src/schema/generate-schemas.js";
import { registerToolSchemas, type GeneratedSchemas, type GeneratedToolSchema } from "entity-tools";
import { validateAgainst } from "../dist/src/schema/validate.js";
import { medianMs, ms, type BenchRow } from "./measure.js";

/** 100 distinct tool schemas shaped like the examples' (fresh objects, so nothing is cached yet). */
function hundredSchemas(seed: GeneratedSchemas, round: number): GeneratedSchemas {
  const shapes = Object.values(seed.tools);
  const tools: Record<string, GeneratedToolSchema> = {};
  for (let i = 0; i < 100; i++) {
    const shape = shapes[i % shapes.length]!;
    tools[`Bench${round}_${i}.tool`] = structuredClone(shape);
  }
  return { tools, outputs: {} };
}

export async function schemas(): Promise<BenchRow[]> {
  const started = performance.now();
  const generated = generateSchemas({ project: "examples/tsconfig.json" });
  const cliMs = performance.now() - started;
  const startup = await medianMs(() => registerToolSchemas(hundredSchemas(generated, 0)), 20, 3);
  // Compiling is per distinct schema content, once per process: measure the first time only.
  const set = hundredSchemas(generated, 1);
  const compileStart = performance.now();
  for (const { inputSchema } of Object.values(set.tools)) validateAgainst(inputSchema, {});
  const eager = performance.now() - compileStart;
  return [
    {
      bench: "4 schemas",
      measure: `generate the examples' schemas (${Object.keys(generated.tools).length} tools, compiler + typescript-json-schema)`,
      value: ms(cliMs),
      goal: "build time",
      met: undefined,
    },
    {
      bench: "4 schemas",
      measure:
        "start-up: load (clone) and register 100 generated tool schemas; validators compile on first use",
      value: ms(startup),
      goal: "< 5 ms",
      met: startup < 5,
    },
    {
      bench: "4 schemas",
      measure: `compile validators for all 100 up front (${new Set(Object.values(set.tools).map((t) => JSON.stringify(t.inputSchema))).size} distinct shapes)`,
      value: ms(eager),
      goal: "",
      met: undefined,
    },
  ];
}
