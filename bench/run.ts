// `npm run bench`: every benchmark, one table. Ratios are measured side by side in this one run.
import os from "node:os";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { coldImport } from "./cold-import.js";
import { discoveryInLoop, discoveryRepeatedInLoop, discoveryScaling } from "./discovery-scaling.js";
import { longRunRows } from "./long-run.js";
import { loopWithDiscovery } from "./loop-discovery.js";
import { loopOverhead } from "./loop-overhead.js";
import { promptCache } from "./prompt-cache.js";
import { conversationStores } from "./conversation-stores.js";
import { runLogOverhead } from "./run-log.js";
import { mcpListing } from "./mcp-listing.js";
import type { BenchRow } from "./measure.js";
import { schemas } from "./schemas.js";
import { tokens } from "./tokens.js";

// Each bench by the name of its file: `npm run bench -- run-log` (or `npm run bench:ai7 -- run-log`) runs
// only the ones named, in this order.
const benches: Record<string, () => Promise<BenchRow[]>> = {
  "cold-import": coldImport,
  "loop-overhead": loopOverhead,
  "loop-discovery": loopWithDiscovery,
  "long-run": longRunRows,
  "discovery-scaling": async () => [
    ...(await discoveryScaling()),
    ...(await discoveryInLoop()),
    ...(await discoveryRepeatedInLoop()),
  ],
  tokens,
  schemas,
  "prompt-cache": promptCache,
  "conversation-stores": conversationStores,
  "run-log": runLogOverhead,
  "mcp-listing": mcpListing,
};
const only = process.argv.slice(2);
const unknown = only.filter((name) => !(name in benches));
if (unknown.length > 0)
  throw new Error(`No bench named ${unknown.join(", ")}: the names are ${Object.keys(benches).join(", ")}`);
const rows: BenchRow[] = [];
for (const [name, bench] of Object.entries(benches))
  if (only.length === 0 || only.includes(name)) rows.push(...(await bench()));

const header = ["bench", "measure", "value", "goal", "met"];
const table = rows.map((r) => [
  r.bench,
  r.measure,
  r.value,
  r.goal,
  r.met === undefined ? "" : r.met ? "yes" : "NO",
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
// The `ai` this process measures (bench:ai7 resolves it from lanes/ai7).
const ai = (
  JSON.parse(readFileSync(fileURLToPath(import.meta.resolve("ai/package.json")), "utf8")) as {
    version: string;
  }
).version;
console.log(
  `node ${process.version} · ai ${ai} · ${os.cpus()[0]?.model ?? "cpu"} × ${os.cpus().length} · ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
);
console.log(line(header));
console.log(line(widths.map((w) => "-".repeat(w))));
for (const row of table) console.log(line(row));
