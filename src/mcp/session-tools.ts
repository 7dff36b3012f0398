// A 2025-11-25 session's tools: the configured tools of the server's tool list, then those the session's
// calls discovered (bound to its providers). The registry is made on first use: a 2026-07-28 server (one
// per request) has none, and making one registers every tool (issue 46: 10 000 tools, each request).
import type { AnyTool } from "../tools/tool.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import type { ServerTools } from "./server-tools.js";

/** The registry of one session, following the server's tool list. */
export class SessionTools {
  private registry: ToolRegistry | undefined;
  private madeFrom: ServerTools | undefined;

  constructor(private readonly maxInjectedTools: number) {}

  /**
   * The session's registry for the server's tool list `tools`. When the list was made again since the
   * registry was (a schema module registered, see `currentServerTools`), the registry is made again: the
   * configured tools are the list's new ones, and the discovered tools stay as they were bound;
   * `remade` says so, for the session's client to be told its list changed.
   */
  of(tools: ServerTools): { readonly registry: ToolRegistry; readonly remade: boolean } {
    if (this.registry && this.madeFrom === tools) return { registry: this.registry, remade: false };
    const remade = this.registry !== undefined;
    const discovered = this.discovered();
    this.registry = new ToolRegistry(tools.plain, { maxInjectedTools: this.maxInjectedTools });
    this.madeFrom = tools;
    if (discovered.length > 0) this.registry.add(discovered);
    return { registry: this.registry, remade };
  }

  /** Lets go of what the session's calls discovered (it closed); its configured tools stay. */
  release(): void {
    this.registry?.remove(this.discovered().map((t) => t.name));
  }

  // A Set of the configured names, not a search of them per tool: with 10 000 tools that search took
  // seconds at each close.
  private discovered(): AnyTool[] {
    const configured = this.madeFrom?.plainNames;
    return this.registry?.all().filter((t) => !configured?.has(t.name)) ?? [];
  }
}
