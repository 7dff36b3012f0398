import { echoed } from "../tools/echoed-text.js";
import type { ToolFailedEvent, ToolFailureReason } from "./tool-loop-event.js";

// A failure's message often quotes what the model sent (a wrong handle holding an e-mail address, a
// field's value) or what a tool threw about it: it is content, like the arguments themselves. Spans
// without `recordContent` and the debug log carry this content-free line instead.
const WHAT_HAPPENED: Readonly<Record<ToolFailureReason, string>> = {
  "unknown-tool": "no tool has that name",
  "invalid-input": "the arguments were refused",
  threw: "the tool threw",
  timeout: "the tool did not finish in time",
  "unreadable-result": "the result could not be read",
  cancelled: "the run ended before it finished",
  denied: "it was not approved",
  "not-run": "it was not run",
};

/** A tool failure in words that quote nothing the model sent: the tool's name and what kind of failure. */
export function toolFailureSummary(event: Pick<ToolFailedEvent, "toolName" | "reason">): string {
  return `Tool "${echoed(event.toolName)}" failed (${event.reason}): ${WHAT_HAPPENED[event.reason]}`;
}
