// The layering of src/ and decorators/, checked from the import statements themselves. Written by hand
// (about forty lines) rather than with a dependency-graph package, because the rule is ours: the layer
// order below is the architecture, and a test names the import that breaks it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Lowest first. A file may import its own folder and folders of lower layers, never a higher or a peer. */
const LAYERS: readonly (readonly string[])[] = [
  // Dependencies loaded on first use (ajv, class-transformer), for every layer above.
  ["src/errors", "src/lazy"],
  // What the library does on the machine it runs on: files for their owner only, local HTTP servers.
  ["src/local"],
  ["decorators"],
  ["src/schema"],
  ["src/tools"],
  ["src/events"],
  ["src/strategies"],
  // The loop, by what its folders hold (lowest first): results, the ports backends implement, settings,
  // the snapshot format, run errors, tool sources, the call pipeline, the Run, an attempt's session, drivers.
  ["src/loop/results"],
  ["src/loop/ports"],
  ["src/loop/settings"],
  ["src/loop/snapshot"],
  ["src/loop/errors"],
  ["src/loop/sources"],
  ["src/loop/execution"],
  ["src/loop/run"],
  ["src/loop/session"],
  ["src/loop/drivers"],
  // Conversations across turns: the store port, its errors, the file store.
  ["src/conversations"],
  // Telemetry and the run log are observers of events (telemetry with @opentelemetry/api, loaded
  // lazily); the runner attaches them.
  ["src/adapters", "src/disclosure", "src/telemetry", "src/run-log"],
  ["src/runner"],
  [
    "src/testing",
    "src/codex",
    "src/mcp",
    "src/claude",
    "src/postgres",
    "src/building-blocks",
    // The run viewer (its server, its export and its page) reads run logs only.
    "src/viewer",
    // The build-tool plugins: the schema CLI's watch, run by Vite, vitest, Rollup or esbuild.
    "src/schema-plugin",
  ],
  // The package's public surface by concept, as the entry point lists it (its errors).
  ["src/public"],
  // The entry points: the package's, and the bin's (each command loaded when asked for).
  ["src/index.ts", "src/cli.ts"],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|(?:^|\n)\s*import\s+"(\.[^"]+)"/g;

/** Relative imports of every file, resolved to repository paths (`.js` specifiers name `.ts` files). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of [...sourceFiles("src"), ...sourceFiles("decorators")]) {
    const targets = [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) =>
      path.join(path.dirname(file), (m[1] ?? m[2])!).replace(/\.js$/, ".ts"),
    );
    graph.set(file, targets);
  }
  return graph;
}

function layerOf(file: string): { index: number; folder: string } {
  for (const [index, folders] of LAYERS.entries()) {
    const folder = folders.find((f) => file === f || file.startsWith(`${f}/`));
    if (folder) return { index, folder };
  }
  throw new Error(`${file} belongs to no layer: add its folder to LAYERS`);
}

describe("architecture", () => {
  const graph = importGraph();

  it("imports only go down the layers (or stay in the same folder)", () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const from = layerOf(file);
      for (const target of targets) {
        const to = layerOf(target);
        if (to.folder !== from.folder && to.index >= from.index) wrong.push(`${file} → ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("has no import cycle", () => {
    const cycles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "visiting") {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(" → "));
        return;
      }
      state.set(file, "visiting");
      for (const target of graph.get(file) ?? []) visit(target, [...trail, file]);
      state.set(file, "done");
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("loads @opentelemetry/api (an optional peer) only lazily, from src/telemetry", () => {
    const eager: string[] = [];
    for (const file of graph.keys()) {
      const source = readFileSync(file, "utf8");
      // `import type` is erased; a value import or a require would load the package with entity-tools.
      const loads = /^\s*import\s+(?!type\s)[^;]*?from\s+"@opentelemetry\/|require\("@opentelemetry\//m.test(
        source,
      );
      const lazy = source.includes('import("@opentelemetry/api")');
      if (loads || (lazy && !file.startsWith("src/telemetry/"))) eager.push(file);
    }
    expect(eager).toEqual([]);
  });
});
