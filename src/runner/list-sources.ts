import type { RunEvents } from "../events/run-events.js";
import { listSource } from "../loop/sources/list-source.js";
import type { SourceWithTools } from "../loop/sources/source-watch.js";
import type { DynamicToolSource } from "../loop/sources/tool-source-port.js";
import type { AnyTool } from "../tools/tool.js";
import { ToolSourceClashError } from "./tool-source-clash-error.js";

/**
 * Every source's tools at the start of an attempt; tools a source lists but cannot offer are reported.
 *
 * @throws ToolSourceError when a source cannot be listed (down, not connected)
 * @throws ToolSourceClashError when a name is offered twice (by the runner's tools or another source)
 */
export async function listSources(
  sources: readonly DynamicToolSource[],
  ownTools: readonly AnyTool[],
  signal: AbortSignal | undefined,
  events: RunEvents,
): Promise<SourceWithTools[]> {
  const owners = new Map(ownTools.map((t) => [t.name, "the runner's own tools"]));
  const listed: SourceWithTools[] = [];
  for (const source of sources) {
    const { tools, skipped } = await listSource(source, signal);
    for (const { toolName, reason } of skipped)
      events.emit({ type: "SourceToolSkipped", source: source.label, toolName, reason });
    for (const tool of tools) {
      const owner = owners.get(tool.name);
      if (owner) throw new ToolSourceClashError(tool.name, owner, source.label);
      owners.set(tool.name, source.label);
    }
    listed.push({ source, tools });
  }
  return listed;
}
