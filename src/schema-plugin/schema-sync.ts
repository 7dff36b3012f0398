// What the build-tool plugins share: the schema module generated when the build starts, and again, at
// once, when a source changes (see src/schema/watch-schemas.ts). The compiler is loaded by the first
// build, not when the build's configuration imports the plugin.
import type { OnDemandSystem } from "../schema/on-demand-system.js";
import type { SchemaWatch, WatchOutcome } from "../schema/watch-schemas.js";

/** Options of the schema plugins: the CLI's `--project`, `--out` and `--type`s. */
export interface SchemaPluginOptions {
  /** The tsconfig.json whose files are scanned, from the working directory. Default `tsconfig.json`. */
  readonly project?: string | undefined;
  /** The module to write, from the working directory (as the CLI's `--out`). */
  readonly out: string;
  /** Output classes to include besides those passed to `createObject(...)` (the CLI's `--type`). */
  readonly types?: readonly string[] | undefined;
}

/** The schema module kept in step with the sources, for one project. */
export class SchemaSync {
  private watch?: { readonly changes: OnDemandSystem; readonly watch: SchemaWatch };
  private outcomes: WatchOutcome[] = [];

  constructor(private readonly options: SchemaPluginOptions) {}

  /**
   * The first call loads the compiler and generates; later ones generate again if a source changed.
   * Returns what was done (a module written, or an error and the last good module kept).
   *
   * @throws SchemaSourceError when the compiler is not installed or the tsconfig.json cannot be read.
   */
  async start(): Promise<readonly WatchOutcome[]> {
    if (this.watch) return this.flush();
    const [{ watchSchemas }, { onDemandSystem }] = await Promise.all([
      import("../schema/watch-schemas.js"),
      import("../schema/on-demand-system.js"),
    ]);
    if (this.watch) return this.flush(); // (two builds started at once)
    const changes = onDemandSystem();
    const { project = "tsconfig.json", out, types = [] } = this.options;
    const watch = watchSchemas(
      { project, out, outputTypes: types },
      (outcome) => this.outcomes.push(outcome),
      changes.system,
    );
    this.watch = { changes, watch };
    return this.taken();
  }

  /** Generates again now if a watched file changed since the last time (nothing before `start`). */
  flush(): readonly WatchOutcome[] {
    this.watch?.changes.flush();
    return this.taken();
  }

  /** A file the build tool saw created, changed or deleted. */
  notify(file: string, event: "create" | "update" | "delete"): void {
    this.watch?.changes.notify(file, event);
  }

  private taken(): readonly WatchOutcome[] {
    return this.outcomes.splice(0);
  }
}

/** An outcome as a line for the build tool's log, or undefined for a module found up to date. */
export function describeOutcome(outcome: WatchOutcome): string | undefined {
  if (outcome.kind === "wrote") return `entity-tools: wrote ${outcome.out}`;
  if (outcome.kind === "error") return `entity-tools: ${outcome.message} (kept the last good ${outcome.out})`;
  return undefined;
}
