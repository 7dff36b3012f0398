// A run's history is plain JSON: it is what a provider is sent over HTTP, and what a snapshot holds (which
// `JSON.stringify`, a `ConversationStore` and a snapshot key's signature take as JSON). A value JSON has no
// form for (a cycle, a bigint, nesting deeper than `MAX_JSON_DEPTH`: only in messages the caller builds or
// a model of its own makes, never from a provider over HTTP) is refused with a `SnapshotError` naming where
// it is, with or without a key: before anything runs when the caller's messages hold it, otherwise when the
// snapshot is written (see docs/approvals-and-snapshots.md, "Values JSON cannot hold"). A history copied
// anyway (a snapshot written, a snapshot read back) is watched by its copy's walk, and looked into only
// when that walk met what may not be plain JSON: the common, plain history costs its copy and no more.
import { jsonFormProblem, problemText, type JsonFormProblem, type ValuePath } from "./json-form-problem.js";
import { SnapshotError } from "./snapshot-error.js";
import { watchedCopy } from "./snapshot-copy.js";

/** When the value was found: in the messages a run was given, or in a snapshot being written. */
export type HistoryStage = "start" | "snapshot";

/**
 * A snapshot copy of `history` (see `snapshotCopy`), checked as {@link checkPlainJson} checks it.
 *
 * @throws SnapshotError naming a value of `history` that JSON has no form for.
 */
export function plainHistoryCopy<T extends readonly unknown[]>(history: T, stage: HistoryStage): T {
  const { copy, suspect } = watchedCopy(history);
  if (suspect) checkPlainJson({ history: copy }, stage);
  return copy;
}

/**
 * @throws SnapshotError naming a value of `content.history` (a run's history, from the messages
 * a run starts from or when its snapshot is written) that JSON has no form for; the messages before
 * `from` are not looked into (already checked).
 */
export function checkPlainJson(
  content: { readonly history: readonly unknown[] },
  stage: HistoryStage,
  from = 0,
): void {
  const problem = problemFrom(content.history, from);
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

/** The problem in `history`'s messages from index `from`, its paths as in the whole history. */
function problemFrom(history: readonly unknown[], from: number): JsonFormProblem | undefined {
  if (from === 0) return jsonFormProblem({ history });
  if (from >= history.length) return undefined;
  // The messages before `from` are no part of the others (a message holds no history array), so the
  // rest is checked as a history of its own, its message indexes then moved back to their places.
  const problem = jsonFormProblem({ history: history.slice(from) });
  if (!problem) return undefined;
  const { cycleTo, ...rest } = problem;
  return { ...rest, path: moved(problem.path, from), ...(cycleTo ? { cycleTo: moved(cycleTo, from) } : {}) };
}

/** `path` (`history[i]…`) with its message index moved by `by`. */
function moved(path: ValuePath, by: number): ValuePath {
  const [field, index, ...rest] = path;
  return typeof index === "number" ? [field!, index + by, ...rest] : path;
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
