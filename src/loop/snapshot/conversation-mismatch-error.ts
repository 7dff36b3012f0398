import { EntityToolsError } from "../../errors/entity-tools-error.js";

/**
 * A snapshot of one stored conversation given as another's (a key mixed up: `continueFrom` or `resume` of
 * conversation "b"'s snapshot in a turn of "a", `turn.save` of it, or a store's `put` of it under "a"): refused,
 * so that two conversations' histories are never merged. Before the run (`conversationId` given to `run`,
 * `stream` or `resume`, or a stored snapshot of another conversation met when a turn begins) nothing ran; at
 * `turn.save` or `put` nothing was saved. Either way the stored conversation stays as it was.
 */
export class ConversationMismatchError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ConversationMismatchError";

  constructor(
    /** The conversation of this turn (the id given as `conversationId`, or to `beginConversationTurn`). */
    readonly conversationId: string,
    /** The conversation the snapshot belongs to (its `conversationId`). */
    readonly snapshotConversationId: string,
    /** Where it was refused: before the run started, or at the turn's save. */
    readonly at: "start" | "save",
  ) {
    super(
      `The snapshot belongs to conversation ${JSON.stringify(snapshotConversationId)}, not to conversation ` +
        `${JSON.stringify(conversationId)}: ${at === "start" ? "this turn did not start (nothing ran)" : "this turn was not saved"}, ` +
        `and conversation ${JSON.stringify(conversationId)} is as it was. Continue a conversation from its own ` +
        "stored snapshot (the turn's `snapshot` from beginConversationTurn with the same id).",
    );
  }
}

/**
 * The one rule for a snapshot and the conversation it is given to (a run's `conversationId`, a store's key):
 * a snapshot that names a conversation (`RunSnapshot.conversationId`) belongs to that one only. A snapshot
 * that names none (an earlier release's, or of runs never given one) belongs to any. Checked by a run before
 * it starts, by `turn.save` and by every store's `put`.
 *
 * @throws ConversationMismatchError when the snapshot names another conversation
 */
export function checkSnapshotConversation(
  conversationId: string,
  snapshot: unknown,
  at: "start" | "save",
): void {
  const of = (snapshot as { conversationId?: unknown } | null | undefined)?.conversationId;
  if (typeof of === "string" && of !== conversationId)
    throw new ConversationMismatchError(conversationId, of, at);
}
