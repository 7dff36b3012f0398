import { ConversationConflictError, InvalidConversationIdError } from "./conversation-store-errors.js";
import type { RunSnapshot } from "./run-snapshot.js";

/** A conversation as a store holds it: the latest snapshot and its version (1 for the first write). */
export interface StoredConversation {
  /** Undefined: a first turn claimed the id (`beginConversationTurn`) and has saved nothing yet. */
  readonly snapshot: RunSnapshot | undefined;
  readonly version: number;
}

/**
 * Where conversations live between requests, by conversation id, with an optimistic version: a write
 * names the version it was based on, and only one write per version succeeds, so two requests for one
 * conversation cannot both write (the second gets `ConversationConflictError`).
 */
export interface ConversationStore {
  /** The conversation, or undefined when nothing was written under this id. */
  get(conversationId: string): Promise<StoredConversation | undefined>;
  /**
   * Writes `snapshot` if the stored version is still `expectedVersion` (undefined: nothing stored yet),
   * and returns the new version. An undefined `snapshot` claims the id for a first turn.
   *
   * @throws ConversationConflictError when another write came first; InvalidConversationIdError
   */
  put(
    conversationId: string,
    snapshot: RunSnapshot | undefined,
    expectedVersion: number | undefined,
  ): Promise<number>;
}

const MAX_ID_BYTES = 180;

/**
 * The one rule for conversation ids, shared by every store: non-empty, at most 180 bytes of UTF-8.
 *
 * @throws InvalidConversationIdError
 */
export function checkConversationId(conversationId: string): void {
  if (typeof conversationId !== "string" || conversationId.length === 0)
    throw new InvalidConversationIdError(String(conversationId), "it is empty");
  if (Buffer.byteLength(conversationId, "utf8") > MAX_ID_BYTES)
    throw new InvalidConversationIdError(conversationId, `it is longer than ${MAX_ID_BYTES} bytes`);
}

/** One turn of a stored conversation, claimed: the snapshot to continue from, and where its result goes. */
export interface StoredConversationTurn {
  /** The conversation so far; undefined for a new one. */
  readonly snapshot: RunSnapshot | undefined;
  /**
   * Saves the turn's snapshot (its result's, or a failed run's error's).
   *
   * @throws ConversationConflictError when another turn of this conversation claimed it meanwhile
   */
  save(snapshot: RunSnapshot): Promise<void>;
}

/**
 * Starts a turn of a stored conversation: reads it and claims it (writes it again at the next version)
 * before anything runs, so of two requests that read the same version only one goes on; the other gets
 * `ConversationConflictError` and runs nothing. That is what keeps a paused run from being resumed twice
 * (an approved call would run twice) and a double-submitted first message from running twice: a new
 * conversation is claimed too (an empty claim, version 1). A turn that dies before `save` leaves the
 * claimed snapshot: the next turn starts from it.
 *
 * @throws ConversationConflictError
 */
export async function beginConversationTurn(
  store: ConversationStore,
  conversationId: string,
): Promise<StoredConversationTurn> {
  const stored = await store.get(conversationId);
  let version = await store.put(conversationId, stored?.snapshot, stored?.version);
  return {
    snapshot: stored?.snapshot,
    save: async (snapshot) => {
      version = await store.put(conversationId, snapshot, version);
    },
  };
}

/** Throws the conflict of a write based on `expected` when the store is at `actual`. */
export function checkVersion(
  conversationId: string,
  expected: number | undefined,
  actual: number | undefined,
): void {
  if ((expected ?? 0) !== (actual ?? 0))
    throw new ConversationConflictError(conversationId, expected, actual);
}
