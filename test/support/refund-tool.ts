// A tool that waits for a person's approval and records each time it runs: what a test of a paused run
// asserts did (or did not) happen.
import { defineTool } from "entity-tools";

/** `refund` (needs approval; answers `refunded`) and the list its every run adds `"refund"` to. */
export function refundTool() {
  const refunds: string[] = [];
  const refund = defineTool({
    name: "refund",
    description: "Refund the order",
    needsApproval: true,
    execute: () => {
      refunds.push("refund");
      return "refunded";
    },
  });
  return { refund, refunds };
}
