// A 2025-11-25 session's tools: the configured tools of the server's tool list, then those the session's
// calls discovered (bound to its providers). The registry is made on first use: a 2026-07-28 server (one
// per request) has none, and making one registers every tool (issue 46: 10 000 tools, each request).
// A session has one registry for as long as it lasts, so what a call still running discovers lands where
// the session's next `tools/list` reads, whatever happened to the tool list meanwhile.
import { ToolRegistry } from "../tools/tool-registry.js";
import type { ServerTools } from "./server-tools.js";

/** The registry of one session, following the server's tool list. */
export class SessionTools {
  private registry: ToolRegistry | undefined;
  private madeFrom: ServerTools | undefined;

  constructor(private readonly maxInjectedTools: number) {}

  /**
   * The session's registry for the server's tool list `tools`. When the list was made again since the
   * registry was (a schema module registered, see `currentServerTools`), the registry's configured tools
   * are the list's new ones, replaced in place: the discovered tools stay as they were bound, and a call
   * still running adds what it finds to this same registry. `remade` says so, for the session's client
   * to be told its list changed.
   */
  of(tools: ServerTools): { readonly registry: ToolRegistry; readonly remade: boolean } {
    const remade = this.registry !== undefined && this.madeFrom !== tools;
    if (!this.registry)
      this.registry = new ToolRegistry(tools.plain, { maxInjectedTools: this.maxInjectedTools });
    else if (remade) this.registry.replacePermanent(tools.plain);
    this.madeFrom = tools;
    return { registry: this.registry, remade };
  }

  /**
   * Lets go of what the session's calls discovered (it closed): the next connection starts from the
   * configured tools, in a registry of its own, so a call of the closed session that ends later adds to
   * a registry no one lists.
   */
  release(): void {
    this.registry = undefined;
    this.madeFrom = undefined;
  }
}
