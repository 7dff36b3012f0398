// A run's history is plain JSON: it is what a provider is sent over HTTP, and what a snapshot holds (which
// `JSON.stringify`, a `ConversationStore` and a snapshot key's signature take as JSON). A value JSON has no
// form for (a cycle, a bigint, nesting deeper than `MAX_JSON_DEPTH`: only in messages the caller builds or
// a model of its own makes, never from a provider over HTTP) is refused with a `SnapshotError` naming where
// it is, with or without a key: before anything runs when the caller's messages hold it, otherwise when the
// snapshot is written (see docs/approvals-and-snapshots.md, "Values JSON cannot hold").
import { jsonFormProblem, problemText, type ValuePath } from "./json-form-problem.js";
import { SnapshotError } from "./snapshot-error.js";

/** When the value was found: in the messages a run was given, or in a snapshot being written. */
export type HistoryStage = "start" | "snapshot";

/**
 * @throws SnapshotError naming a value of `content.history` (a run's history, from the messages
 * a run starts from or when its snapshot is written) that JSON has no form for.
 */
export function checkPlainJson(content: { readonly history: readonly unknown[] }, stage: HistoryStage): void {
  const problem = jsonFormProblem(content);
  if (!problem) return;
  const what = `${problemText(problem)}${partOf(content, problem.path)}`;
  const outcome =
    stage === "start"
      ? "Nothing ran: remove it from the messages (or the snapshot) given to the run"
      : "The run stopped without a snapshot: remove it from the messages or the model's response metadata";
  throw new SnapshotError(
    `The run's history is not plain JSON: ${what}. ${outcome}. A provider is sent the history and a snapshot ` +
      "holds it (JSON.stringify, a ConversationStore, withSnapshotKey's signature): it must be plain JSON.",
  );
}

/** `, in the result of call c1 (refund)` or `, in message 0 (user)`: the message a history path is in. */
function partOf(content: { readonly history: readonly unknown[] }, path: ValuePath): string {
  const [field, index, contentKey, partIndex] = path;
  if (field !== "history" || typeof index !== "number") return "";
  const message = content.history[index] as { role?: unknown; content?: unknown };
  const part =
    contentKey === "content" && typeof partIndex === "number" && Array.isArray(message.content)
      ? (message.content[partIndex] as { type?: unknown; toolCallId?: unknown; toolName?: unknown })
      : undefined;
  if (part && typeof part.toolCallId === "string")
    return `, in the ${part.type === "tool-result" ? "result of call" : "call"} ${part.toolCallId} (${String(part.toolName)})`;
  return `, in message ${index} (${String(message.role)})`;
}
