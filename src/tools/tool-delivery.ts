import type { AnyTool } from "./tool.js";

/**
 * How discovered tools reach the model: `"inline"` (the default) in the request's tool list, like any other
 * tool; `"deferred"` in the model provider's own deferred form when it has one (Anthropic Messages, OpenAI
 * Responses), so the cached front of every request (the tool list first) does not change when tools are
 * discovered. A provider without such a form gets them inline (and the run says so once).
 */
export type ToolDelivery = "inline" | "deferred";

/** `tools` marked for `delivery` (unchanged for `"inline"`): the adapter reads the mark at every step. */
export function deliveredAs(tools: readonly AnyTool[], delivery: ToolDelivery | undefined): AnyTool[] {
  return delivery === "deferred"
    ? tools.map((tool) => (tool.delivery === "deferred" ? tool : { ...tool, delivery: "deferred" }))
    : [...tools];
}
