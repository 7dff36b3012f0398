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

const rows: BenchRow[] = [
  ...(await coldImport()),
  ...(await loopOverhead()),
  ...(await loopWithDiscovery()),
  ...(await longRunRows()),
  ...(await discoveryScaling()),
  ...(await discoveryInLoop()),
  ...(await discoveryRepeatedInLoop()),
  ...(await tokens()),
  ...(await schemas()),
  ...(await promptCache()),
  ...(await conversationStores()),
  ...(await runLogOverhead()),
  ...(await mcpListing()),
];

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
