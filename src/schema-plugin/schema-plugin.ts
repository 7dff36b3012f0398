import path from "node:path";
import { describeOutcome, SchemaSync, type SchemaPluginOptions } from "./schema-sync.js";
import type { WatchOutcome } from "../schema/watch-schemas.js";

/** The part of a build tool's plugin context the plugin uses. */
export interface SchemaPluginContext {
  /** Logs a warning through the build tool. */
  warn(message: string): void;
}

/** The part of Vite's dev server the plugin uses: its module graphs, to drop the module's old transform. */
export interface SchemaDevServer {
  /** Vite 6 and later: a module graph per environment. */
  readonly environments?: Readonly<Record<string, { readonly moduleGraph: SchemaModuleGraph }>> | undefined;
  /** Vite before 6: one module graph. */
  readonly moduleGraph?: SchemaModuleGraph | undefined;
}

/** A Vite module graph, as far as the plugin uses it. */
export interface SchemaModuleGraph {
  /** The modules of one file (an absolute path). */
  getModulesByFile(file: string): Iterable<unknown> | undefined;
  /** Drops a module's cached transform. */
  invalidateModule(module: unknown): void;
}

/** The plugin {@link schemaPlugin} returns: a Vite plugin, which is also a Rollup plugin. */
export interface SchemaPlugin {
  /** `entity-tools-schemas`. */
  readonly name: string;
  /** Before other plugins: the module is written before anything reads it. */
  readonly enforce: "pre";
  /** Generates the module before the first transform (and, in Rollup's watch mode, before each build). */
  buildStart(this: SchemaPluginContext): Promise<void>;
  /** Generates it again at once when a source changed, before the build tool re-runs anything. */
  watchChange(this: SchemaPluginContext, id: string, change: { event: "create" | "update" | "delete" }): void;
  /** Keeps Vite's dev server, whose cached transform of the module is dropped when it is written. */
  configureServer(server: SchemaDevServer): void;
}

/**
 * A Vite plugin (so also vitest's, and a Rollup plugin) that writes the schema module `entity-tools
 * schemas` writes: before the first file is transformed, and again whenever a source changes, before the
 * change is acted on, so `vitest --watch` and `vite` never run on stale schemas. Only a module whose
 * meaning changed is written. An error (a syntax error, a type the schemas cannot express) is a warning
 * that says where; the last good module is kept. Generation needs `typescript-json-schema` (build time
 * only).
 *
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from "vitest/config";
 * import { schemaPlugin } from "entity-tools/schema-plugin";
 * export default defineConfig({ plugins: [schemaPlugin({ out: "src/generated/tool-schemas.ts" })] });
 * ```
 */
export function schemaPlugin(options: SchemaPluginOptions): SchemaPlugin {
  const sync = new SchemaSync(options);
  let server: SchemaDevServer | undefined;
  const handle = (context: SchemaPluginContext, outcomes: readonly WatchOutcome[]) => {
    for (const outcome of outcomes) {
      const line = describeOutcome(outcome);
      if (outcome.kind === "error") context.warn(line!);
      else if (line) console.log(line);
      if (outcome.kind === "wrote" && server) invalidate(server, outcome.out);
    }
  };
  return {
    name: "entity-tools-schemas",
    enforce: "pre",
    async buildStart() {
      handle(this, await sync.start());
    },
    watchChange(id, change) {
      sync.notify(id, change.event);
      handle(this, sync.flush());
    },
    configureServer(devServer) {
      server = devServer;
    },
  };
}

/**
 * Drops the dev server's transform of the module just written: a run that starts before the file watcher
 * reports the write then reads the new file, not the cached old one.
 */
function invalidate(server: SchemaDevServer, file: string): void {
  const graphs = server.environments
    ? Object.values(server.environments).map((e) => e.moduleGraph)
    : [server.moduleGraph];
  const absolute = path.resolve(file).split(path.sep).join("/");
  for (const graph of graphs)
    for (const module of graph?.getModulesByFile(absolute) ?? []) graph!.invalidateModule(module);
}
