import { EntityToolsError } from "../../errors/entity-tools-error.js";

/**
 * A snapshot of one stored conversation given as another's (a key mixed up: `continueFrom` or `resume` of
 * conversation "b"'s snapshot in a turn of "a", or `turn.save` of it): refused, so that two conversations'
 * histories are never merged. Before the run (`conversationId` given to `run`, `stream` or `resume`) nothing
 * ran; at `turn.save` nothing was saved. Either way the stored conversation stays as it was.
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
