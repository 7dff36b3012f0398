// Tools that count what is done with them, for tests that assert how often something is made: a
// registry reads a tool's `origin` once as it registers it, and `tools/list` reads its `description`
// once as it describes it.
import { defineTool, type AnyTool } from "entity-tools";

/** A tool named `watched` (never meant to be called) and how often each of those reads happened. */
export function countingTool(): {
  readonly tool: AnyTool;
  readonly counts: { registered: number; described: number };
} {
  const counts = { registered: 0, described: 0 };
  const tool = {
    ...defineTool({ name: "watched", description: "", execute: () => "no" }),
    get origin() {
      counts.registered++;
      return undefined;
    },
    get description() {
      counts.described++;
      return "Never called";
    },
  };
  return { tool, counts };
}
