import { EntityToolsError } from "../errors/entity-tools-error.js";

/**
 * A write to a conversation that someone else wrote first (two requests for one conversation at once):
 * the stored conversation is at `actualVersion`, not the `expectedVersion` this write was based on.
 */
export class ConversationConflictError extends EntityToolsError {
  static override readonly errorName: string = "ConversationConflictError";

  constructor(
    readonly conversationId: string,
    readonly expectedVersion: number | undefined,
    readonly actualVersion: number | undefined,
  ) {
    super(
      `Conversation "${conversationId}" was written by another request meanwhile ` +
        `(expected version ${expectedVersion ?? "none"}, found ${actualVersion ?? "none"}); this turn was not saved. ` +
        "Read the conversation again and retry the turn, or tell the user it is busy.",
    );
  }
}

/** A conversation id a store cannot keep: empty, or too long. */
export class InvalidConversationIdError extends EntityToolsError {
  static override readonly errorName: string = "InvalidConversationIdError";

  constructor(
    readonly conversationId: string,
    readonly reason: string,
  ) {
    super(
      `Invalid conversation id ${JSON.stringify(conversationId.slice(0, 80))}: ${reason}. Use a short opaque id (a UUID).`,
    );
  }
}
