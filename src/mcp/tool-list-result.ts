// The `tools/list` result, made once per list. What a server lists is a frozen array that stays the same
// object until the list changes: the 2026-07-28 list of a tool list (`ServerTools.listed`, made again when
// the tools, the classes, the key or a schema module change), a 2025-11-25 session's registry (`all()`,
// a new array after each discovery, eviction, release or remaking). So the result is kept by that array:
// a request served from an unchanged list describes no tool (10 000 tools were described at every request),
// and a changed list, a new array, is described once.
import { dispatcherTool } from "../loop/drivers/dispatcher-tool.js";
import type { AnyTool } from "../tools/tool.js";

// Typed as the SDK's handler takes them (mutable), frozen at run time: the result is shared by requests.
/** A tool as `tools/list` describes it. */
type ListedTool = {
  name: string;
  description: string;
  inputSchema: never; // our schemas are JSON; the SDK types them as JSON values
  annotations?: { destructiveHint: true };
};

/** What the `tools/list` handler answers (the SDK adds `ttlMs` and `cacheScope` to a copy of it). */
export type ToolListResult = { tools: ListedTool[] };

const results = new WeakMap<readonly AnyTool[], ToolListResult>();
const withDispatcher = new WeakMap<readonly AnyTool[], ToolListResult>();

/**
 * The result listing `tools` (then, with `dispatch`, `call_discovered_tool`): the one made for this array
 * before when it is frozen (it cannot change under the result), else made now.
 */
export function toolListResult(tools: readonly AnyTool[], dispatch = false): ToolListResult {
  const made = dispatch ? withDispatcher : results;
  let result = made.get(tools);
  if (!result) {
    const listed = dispatch ? [...tools, dispatcherTool] : tools;
    result = Object.freeze({ tools: Object.freeze(listed.map(describeTool)) as ListedTool[] });
    if (Object.isFrozen(tools)) made.set(tools, result);
  }
  return result;
}

/** A tool as `tools/list` describes it; one that needs approval is marked destructive. */
function describeTool(tool: AnyTool): ListedTool {
  return Object.freeze({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as never,
    ...(tool.needsApproval ? { annotations: { destructiveHint: true as const } } : {}),
  });
}
