import type { RunSnapshot } from "./run-snapshot.js";

/**
 * The run a snapshot names as its own (`log`, its events' `runId`), which a run going on from it (`resume`,
 * `continueFrom`) continues: its `RunStarted.continues` and its run log's `continues`. Read before the
 * snapshot is checked (the run log starts first), so anything but a string is none.
 */
export function continuedRun(snapshot: RunSnapshot): string | undefined {
  return textField(snapshot, "log");
}

/** The stored conversation a snapshot names (`conversationId`), read as `continuedRun` reads its run. */
export function continuedConversation(snapshot: RunSnapshot): string | undefined {
  return textField(snapshot, "conversationId");
}

function textField(snapshot: RunSnapshot, field: "log" | "conversationId"): string | undefined {
  const value = (snapshot as Partial<Record<typeof field, unknown>> | undefined)?.[field];
  return typeof value === "string" ? value : undefined;
}
