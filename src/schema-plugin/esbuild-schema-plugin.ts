import { describeOutcome, SchemaSync, type SchemaPluginOptions } from "./schema-sync.js";

/** The part of esbuild's `PluginBuild` the plugin uses. */
export interface SchemaEsbuildBuild {
  /** Runs a callback at the start of every build. */
  onStart(callback: () => Promise<{ warnings: { text: string }[] }>): void;
}

/** The plugin {@link esbuildSchemaPlugin} returns. */
export interface EsbuildSchemaPlugin {
  /** `entity-tools-schemas`. */
  readonly name: string;
  /** Registers the generation at each build's start. */
  setup(build: SchemaEsbuildBuild): void;
}

/**
 * The esbuild plugin of {@link schemaPlugin}: writes the schema module at the start of each build (in
 * watch mode, each rebuild regenerates it if a source changed since, reusing the unchanged files). An
 * error is a build warning; the last good module is kept.
 */
export function esbuildSchemaPlugin(options: SchemaPluginOptions): EsbuildSchemaPlugin {
  const sync = new SchemaSync(options);
  return {
    name: "entity-tools-schemas",
    setup(build) {
      build.onStart(async () => {
        const warnings: { text: string }[] = [];
        for (const outcome of await sync.start()) {
          const line = describeOutcome(outcome);
          if (outcome.kind === "error") warnings.push({ text: line! });
          else if (line) console.log(line);
        }
        return { warnings };
      });
    },
  };
}
