import type { RunEvents } from "../../events/run-events.js";
import type { AnyTool } from "../../tools/tool.js";
import type { ToolRegistry } from "../../tools/tool-registry.js";
import { listSource } from "./list-source.js";
import type { DynamicToolSource } from "./tool-source-port.js";
import { untilAborted } from "../errors/until-aborted.js";

/** A dynamic source and the tools it had when the run started. */
export interface SourceWithTools {
  readonly source: DynamicToolSource;
  readonly tools: readonly AnyTool[];
}

/**
 * A tool a source has in the run, and the text of its definition once a re-listing compared it: kept, so
 * the next re-listing stringifies only the new side.
 */
interface HeldTool {
  readonly tool: AnyTool;
  definition?: string;
}

/**
 * The dynamic sources of a run (MCP servers) and the tools each has in the run now: a source that announces
 * a change (or whose list expired) is listed again between steps and the difference applied.
 */
export class SourceWatch {
  /**
   * Each source's tools now (name → the tool, whose definition tells a changed one), and whether it
   * announced a change since it was last listed.
   */
  private readonly sources: {
    source: DynamicToolSource;
    tools: Map<string, HeldTool>;
    changed: boolean;
    stop: () => void;
  }[];

  constructor(
    sources: readonly SourceWithTools[],
    private readonly registry: ToolRegistry,
    private readonly events: RunEvents,
    private readonly signal: AbortSignal | undefined,
    /** Injects a source's new tools; returns the names now held. */
    private readonly inject: (tools: readonly AnyTool[], label: string) => string[],
  ) {
    this.sources = sources.map(({ source, tools }) => {
      // The tools, not their definitions' text: a server of 10 000 tools would have each one's schema
      // written out before the run's first step; a re-listing compares the two it needs (issue 46).
      const held = new Map(tools.map((tool): [string, HeldTool] => [tool.name, { tool }]));
      const entry = { source, tools: held, changed: false, stop: () => {} };
      entry.stop = source.watch(() => {
        entry.changed = true;
      });
      return entry;
    });
  }

  /**
   * Re-lists the sources that announced a change (or whose list expired) and applies the difference: new
   * tools injected (they count against the budget like discovered ones), vanished tools removed, a tool
   * listed again with another definition replaced and reported. A name already held by a local tool or
   * another source stays theirs: the newcomer is skipped and reported.
   *
   * Nothing (no promise, no async call) for a run without sources, most runs: that was about 0.5 kB a step
   * (docs/performance.md, round 14).
   *
   * @throws ToolSourceError when a source cannot be listed
   */
  refresh(): Promise<void> | undefined {
    return this.sources.length === 0 ? undefined : this.relist();
  }

  private async relist(): Promise<void> {
    for (const entry of this.sources) {
      if (!entry.changed && !entry.source.expired?.()) continue;
      entry.changed = false;
      const { source } = entry;
      const listing = await untilAborted(listSource(source, this.signal), this.signal);
      const now = new Map(listing.tools.map((t) => [t.name, t]));
      const removed = this.registry.remove([...entry.tools.keys()].filter((name) => !now.has(name)));
      if (removed.length > 0)
        this.events.emit({
          type: "ToolsRemoved",
          toolNames: removed.map((t) => t.name),
          reason: "source",
        });
      for (const name of removed.map((t) => t.name)) entry.tools.delete(name);
      const skipped = [...listing.skipped];
      const fresh: HeldTool[] = [];
      const changed: HeldTool[] = [];
      for (const tool of listing.tools) {
        const held = entry.tools.get(tool.name);
        if (held === undefined && this.registry.get(tool.name)) {
          skipped.push({ toolName: tool.name, reason: `the name is taken by ${this.ownerOf(tool.name)}` });
        } else if (held === undefined) fresh.push({ tool });
        else {
          const definition = definitionOf(tool);
          held.definition ??= definitionOf(held.tool);
          if (held.definition !== definition) changed.push({ tool, definition });
        }
      }
      for (const { toolName, reason } of skipped)
        this.events.emit({ type: "SourceToolSkipped", source: source.label, toolName, reason });
      if (changed.length > 0)
        this.events.emit({
          type: "SourceToolChanged",
          source: source.label,
          toolNames: changed.map((c) => c.tool.name),
        });
      const offered = [...fresh, ...changed];
      const tools = offered.map((o) => o.tool);
      const held = new Set(this.inject(tools, source.label));
      for (const o of offered) if (held.has(o.tool.name)) entry.tools.set(o.tool.name, o);
    }
  }

  /** Who offers a tool name: a source's label, or the run's own tools. */
  private ownerOf(name: string): string {
    const owner = this.sources.find((entry) => entry.tools.has(name));
    return owner ? owner.source.label : "a tool of the runner";
  }

  /** Stops listening for changes. */
  stop(): void {
    for (const entry of this.sources) entry.stop();
  }
}

/** What a change of a tool's definition is judged by: what the model reads of it. */
function definitionOf(tool: AnyTool): string {
  return JSON.stringify([tool.description, tool.inputSchema]);
}
