import { EntityToolsError } from "../errors/entity-tools-error.js";

/**
 * A write to a conversation that someone else wrote first (two requests for one conversation at once):
 * the stored conversation is at `actualVersion`, not the `expectedVersion` this write was based on. With
 * `busyUntil`: a turn was refused before it started, because another turn holds the conversation.
 */
export class ConversationConflictError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ConversationConflictError";
  /**
   * When to try the turn again, in ms from when the error was made: 0 after a write that lost a race (read
   * the conversation again now); for a turn in progress, until its claim ends unless its process renews it
   * (a live turn does; a dead one frees the conversation then). HTTP: `Retry-After` in whole seconds.
   */
  readonly retryAfterMs: number;

  /** @param retryAfterMs default: until `busyUntil` by the system clock, else 0 */
  constructor(
    /** The conversation written to. */
    readonly conversationId: string,
    /** The stored version this write was based on (undefined: none, a new conversation). */
    readonly expectedVersion: number | undefined,
    /** The version the store holds now (undefined: none). */
    readonly actualVersion: number | undefined,
    /** For a turn refused before it started: when the other turn's claim ends, in ms since the epoch. */
    readonly busyUntil?: number,
    retryAfterMs?: number,
  ) {
    const after =
      retryAfterMs ?? (busyUntil === undefined ? 0 : Math.max(1, Math.ceil(busyUntil - Date.now())));
    super(
      busyUntil !== undefined
        ? `Conversation "${conversationId}" has a turn in progress (another request started it and holds the ` +
            "conversation until it saves; its process renews the claim while it lives, else the claim ends at " +
            `${new Date(busyUntil).toISOString()}); this turn did not start. Retry in ${Math.ceil(after / 1000)} s ` +
            `(retryAfterMs: ${after}), or tell the user it is busy.`
        : `Conversation "${conversationId}" was written by another request meanwhile ` +
            `(expected version ${expectedVersion ?? "none"}, found ${actualVersion ?? "none"}); this turn was not saved. ` +
            "Read the conversation again and retry the turn, or tell the user it is busy.",
    );
    this.retryAfterMs = after;
  }
}

/**
 * A conversation id no store keeps (the rule every store shares): empty, over 180 bytes of UTF-8, or holding
 * a NUL character or a lone surrogate. Refused before any store is touched.
 */
export class InvalidConversationIdError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "InvalidConversationIdError";

  constructor(
    /** The id refused. */
    readonly conversationId: string,
    /** Why it is refused, in words. */
    readonly reason: string,
  ) {
    super(
      `Invalid conversation id ${JSON.stringify(conversationId.slice(0, 80))}: ${reason}. Use a short opaque id (a UUID).`,
    );
  }
}

/**
 * A stored conversation that cannot be read back (a file cut short by a full disk or a crash, a row
 * edited by hand): the store holds it but it is not a snapshot.
 */
export class StoredConversationUnreadableError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "StoredConversationUnreadableError";

  constructor(
    /** The conversation that cannot be read. */
    readonly conversationId: string,
    /** Where the store keeps it (a file, a table row). */
    readonly where: string,
    /** Why it is not a stored conversation, in words. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Conversation "${conversationId}" cannot be read: ${where} is not a stored conversation (${reason}). ` +
        "Restore it from a backup, or delete it to start the conversation over.",
      options,
    );
  }
}

/**
 * A snapshot over the store's size limit (`maxSnapshotBytes`): not written; the stored version stays. At a
 * turn's start (`at: "start"`, from `beginConversationTurn`): the stored conversation itself is over the limit
 * (it was lowered since), so no turn of it could be saved, and this one did not start.
 */
export class ConversationTooLargeError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ConversationTooLargeError";

  constructor(
    /** The conversation not saved. */
    readonly conversationId: string,
    /** The snapshot's size, in bytes. */
    readonly bytes: number,
    /** The store's limit, in bytes (`maxSnapshotBytes`). */
    readonly maxBytes: number,
    /** Where: a write (`"save"`, the default), or a turn's start, before anything ran (`"start"`). */
    readonly at: "start" | "save" = "save",
  ) {
    super(
      (at === "start"
        ? `Conversation "${conversationId}" is over the store's limit: its stored snapshot is ${bytes} bytes, over ` +
          `${maxBytes} (maxSnapshotBytes), so no turn of it could be saved; this turn did not start (nothing ran). `
        : `Conversation "${conversationId}" was not saved: its snapshot is ${bytes} bytes, over the store's limit of ` +
          `${maxBytes} (maxSnapshotBytes). `) + "Start a new conversation, or raise the limit.",
    );
  }
}

/** The store could not be reached or answered with an error (a database that is down): nothing was written. */
export class ConversationStoreUnavailableError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "ConversationStoreUnavailableError";

  constructor(
    /** The store, in words (`PostgreSQL, table public.conversations`). */
    readonly store: string,
    /** What went wrong, in words (the store's own error). */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `The conversation store (${store}) is unavailable: ${reason}. Nothing was written; retry when it is back.`,
      options,
    );
  }
}

/**
 * What a store throws for a failure of what it keeps conversations in (a database, a disk): an
 * `EntityToolsError` as it is (a conflict, an id refused, a stored conversation unreadable), anything else
 * as {@link ConversationStoreUnavailableError} naming `store`.
 */
export function storeFailure(store: string, error: unknown): Error {
  if (EntityToolsError.isInstance(error)) return error;
  return new ConversationStoreUnavailableError(
    store,
    error instanceof Error ? error.message || error.name : String(error),
    { cause: error },
  );
}
