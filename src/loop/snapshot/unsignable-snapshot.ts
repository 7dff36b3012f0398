// What a runner with a snapshot key does with a run it cannot sign: a signature covers a snapshot's JSON
// form, and a value JSON has no form for (a cycle, a bigint: only in messages the caller builds or a model
// of its own makes, never from a provider over HTTP) has none to cover. The run is refused with a
// `SnapshotError` naming where the value is, before anything runs when the caller's messages hold it, and
// otherwise when the snapshot is written (see docs/approvals-and-snapshots.md, "Signed snapshots").
import { jsonFormProblem, pathText, type JsonFormProblem } from "./json-form-problem.js";
import { SnapshotError } from "./snapshot-error.js";

/** When the value was found: in the messages a run was given, or in a snapshot being written. */
export type SigningStage = "start" | "snapshot";

/**
 * @throws SnapshotError naming the first value of `content` (a snapshot or the part of one a run starts
 * from) that JSON has no form for, so that a snapshot key cannot sign it.
 */
export function checkSignable(content: object, stage: SigningStage, cause?: unknown): void {
  const problem = jsonFormProblem(content);
  if (problem) throw new SnapshotError(unsignableMessage(content, problem, stage), { cause });
}

function unsignableMessage(content: object, problem: JsonFormProblem, stage: SigningStage): string {
  const where = pathText(problem.path);
  const what = problem.cycleTo
    ? `${where} refers back to ${pathText(problem.cycleTo)} (a cycle)`
    : `${where} is a bigint`;
  const outcome =
    stage === "start"
      ? "Nothing ran. Remove it from the messages given to the run"
      : "The run stopped without a snapshot. Remove it from the messages or the model's response metadata";
  return `The snapshot cannot be signed (withSnapshotKey): ${what}${partOf(content, problem.path)}, which JSON, the form the signature covers, cannot hold. ${outcome}: a snapshot is plain JSON.`;
}

/** `, in the result of call c1 (refund)` or `, in message 0 (user)`: the message a history path is in. */
function partOf(content: object, path: readonly (string | number)[]): string {
  const [field, index, contentKey, partIndex] = path;
  if (field !== "history" || typeof index !== "number") return "";
  const message = (content as { history: readonly unknown[] }).history[index] as {
    role?: unknown;
    content?: unknown;
  };
  const part =
    contentKey === "content" && typeof partIndex === "number" && Array.isArray(message.content)
      ? (message.content[partIndex] as { type?: unknown; toolCallId?: unknown; toolName?: unknown })
      : undefined;
  if (part && typeof part.toolCallId === "string")
    return `, in the ${part.type === "tool-result" ? "result of call" : "call"} ${part.toolCallId} (${String(part.toolName)})`;
  return `, in message ${index} (${String(message.role)})`;
}
